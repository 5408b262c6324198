import type { LicenseResponse } from "@licensing/contracts";
import { Select, Text, TextInput } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useLookups } from "./lookups.ts";

export type LicenseAction = "revoke" | "suspend" | "resume" | "transfer" | "rebind";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What re-signing does to the machines (transfer and rebind deactivate every active activation). */
function seatsFreed(active: number | undefined) {
  if (active === undefined) return "Every active activation will be deactivated and its seat freed";
  if (active === 0) return "No machine is activated, so no seat is freed";
  return `${plural(active, "active activation", "active activations")} will be deactivated and ${active === 1 ? "its seat" : "their seats"} freed`;
}

/** A sentence about the machines activated now, its verb agreeing with their number. */
function machines(active: number | undefined, one: string, many: string) {
  if (active === 0) return "No machine is activated now.";
  if (active === undefined) return `Activated machines ${many}`;
  return active === 1 ? `The 1 activated machine ${one}` : `The ${active} activated machines ${many}`;
}

/** How many machines the revocation reaches, a sentence and its space (nothing before the count is known). */
function activatedNow(active: number | undefined) {
  if (active === undefined) return "";
  if (active === 0) return "No machine is activated now. ";
  return active === 1 ? "1 machine is activated now. " : `${active} machines are activated now. `;
}

/** What each action will do, said before it is done, with this license's numbers. */
export function consequences(
  action: LicenseAction,
  license: LicenseResponse,
  { active, targetName }: { active: number | undefined; targetName: string | undefined },
): string {
  const window = `${license.offlineDays}-day offline window`;
  const version = `the version goes from ${license.currentVersion} to ${license.currentVersion + 1}`;
  switch (action) {
    case "revoke":
      return `The license stops working for good: activations and heartbeats are refused from now on. ${
        license.revocation === "immediate"
          ? "Its revocation is immediate: an installed program that is online turns Revoked at its next heartbeat, from a signed revocation, and stays Revoked after a restart without network; a machine that never goes online learns of it only from the template's revocation list."
          : `Its revocation is graceful (the specification's rule 5): an installed program keeps working until its ${window} runs out, then for the 24-hour grace period.`
      } ${activatedNow(active)}This cannot be undone.`;
    case "suspend":
      return `Activations and heartbeats are refused until the license is resumed. ${machines(
        active,
        `keeps its seat and stops when its ${window} ends, unless the license is resumed first.`,
        `keep their seats and stop when their ${window} ends, unless the license is resumed first.`,
      )}`;
    case "resume":
      return `The license works again: activations and heartbeats are accepted from now on. ${machines(
        active,
        "keeps its seat and carries on at its next heartbeat.",
        "keep their seats and carry on at their next heartbeat.",
      )} The license file does not change: nothing needs to be downloaded again.`;
    case "transfer":
      return `The license moves to ${targetName ?? "the company chosen below"} with its configuration: ${seatsFreed(active)}, ${version}, and the customer needs the new license file.`;
    case "rebind":
      return `The hardware binding changes and ${version}: ${seatsFreed(active)}, and the customer needs the new license file. A machine bound to the old fingerprint can no longer activate.`;
  }
}

export function LicenseActionDialog({
  license,
  action,
  onClose,
}: {
  license: LicenseResponse;
  action: LicenseAction;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const lookups = useLookups();
  const activations = useQuery(trpc.activations.list.queryOptions({ id: license.id }));
  const active = activations.data?.filter((a) => a.status === "active").length;
  const [reason, setReason] = useState("");
  const [target, setTarget] = useState<string | null>(null);
  const [fingerprint, setFingerprint] = useState(license.hwFingerprint ?? "");
  const after = { invalidate: [trpc.licenses.pathKey(), trpc.activations.pathKey()], then: onClose };
  const revoke = useAction(trpc.licenses.revoke.mutationOptions(), { ...after, success: "License revoked" });
  const suspend = useAction(trpc.licenses.suspend.mutationOptions(), {
    ...after,
    success: "License suspended",
  });
  const resume = useAction(trpc.licenses.resume.mutationOptions(), { ...after, success: "License resumed" });
  const transfer = useAction(trpc.licenses.transfer.mutationOptions(), {
    ...after,
    success: (r) =>
      `License transferred; ${plural(r.deactivatedActivations, "activation", "activations")} deactivated`,
  });
  const rebind = useAction(trpc.licenses.rebind.mutationOptions(), { ...after, success: "License rebound" });
  const mutation = { revoke, suspend, resume, transfer, rebind }[action];

  const run = () => {
    const id = license.id;
    if (action === "revoke") revoke.mutate({ id, reason: reason || null });
    if (action === "suspend") suspend.mutate({ id });
    if (action === "resume") resume.mutate({ id });
    if (action === "transfer" && target) transfer.mutate({ id, newCompanyId: target });
    if (action === "rebind")
      rebind.mutate({ id, hwFingerprint: fingerprint.trim() || null, reason: reason || null });
  };

  let fields: ReactNode = null;
  if (action === "revoke")
    fields = <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />;
  if (action === "transfer")
    fields = (
      <Select
        label="New company"
        required
        searchable
        data={lookups.companyOptions.filter((c) => c.value !== license.companyId)}
        value={target}
        onChange={setTarget}
      />
    );
  if (action === "rebind")
    fields = (
      <>
        <TextInput
          label="New hardware fingerprint"
          description={
            license.hwBinding === "fixed"
              ? "Empty: the next machine that activates is bound"
              : `Empty: the binding stays ${license.hwBinding}`
          }
          value={fingerprint}
          onChange={(e) => setFingerprint(e.currentTarget.value)}
        />
        <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
      </>
    );

  const verb = `${action[0]!.toUpperCase()}${action.slice(1)}`;
  const targetName = target ? lookups.companyName(target) : undefined;
  return (
    <ActionDialog
      title={`${verb} ${license.licenseKey}`}
      size="lg"
      action={mutation}
      submitLabel={verb}
      color={action === "revoke" ? "red" : undefined}
      disabled={action === "transfer" && !target}
      onClose={onClose}
      onSubmit={run}
    >
      <Text size="sm" aria-live="polite">
        {consequences(action, license, { active, targetName })}
      </Text>
      {fields}
    </ActionDialog>
  );
}
