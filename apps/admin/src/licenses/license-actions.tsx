import type { LicenseResponse } from "@licensing/contracts";
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";
import { useLookups } from "./lookups.ts";

export type LicenseAction = "revoke" | "suspend" | "resume" | "transfer" | "rebind";

/** What each action will do, said before it is done. */
const consequences: Record<LicenseAction, string> = {
  revoke:
    "The license stops working for good: activations and heartbeats are refused from now on, and installed copies stop when their offline window ends. This cannot be undone.",
  suspend:
    "Activations and heartbeats are refused until the license is resumed; installed copies keep running until their offline window ends.",
  resume: "The license works again: activations and heartbeats are accepted.",
  transfer:
    "The license moves to another company. Every activation is deactivated (the seats are freed), the version goes up, and the customer needs the new license file.",
  rebind:
    "The hardware binding changes and the version goes up: the customer needs the new license file. A machine bound to the old fingerprint can no longer activate.",
};

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
  const queryClient = useQueryClient();
  const lookups = useLookups();
  const [reason, setReason] = useState("");
  const [target, setTarget] = useState<string | null>(null);
  const [fingerprint, setFingerprint] = useState(license.hwFingerprint ?? "");
  const done = (message: string) => async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.licenses.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.activations.pathKey() });
    notifications.show({ color: "green", message });
    onClose();
  };
  const revoke = useMutation(trpc.licenses.revoke.mutationOptions({ onSuccess: done("License revoked") }));
  const suspend = useMutation(
    trpc.licenses.suspend.mutationOptions({ onSuccess: done("License suspended") }),
  );
  const resume = useMutation(trpc.licenses.resume.mutationOptions({ onSuccess: done("License resumed") }));
  const transfer = useMutation(
    trpc.licenses.transfer.mutationOptions({
      onSuccess: async (r) => {
        await done(`License transferred; ${r.deactivatedActivations} activation(s) deactivated`)();
      },
    }),
  );
  const rebind = useMutation(trpc.licenses.rebind.mutationOptions({ onSuccess: done("License rebound") }));
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
          description="Empty releases the binding: the license then works on any machine"
          value={fingerprint}
          onChange={(e) => setFingerprint(e.currentTarget.value)}
        />
        <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
      </>
    );

  const title = `${action[0]!.toUpperCase()}${action.slice(1)} ${license.licenseKey}`;
  return (
    <Modal opened onClose={onClose} title={title} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <Stack>
          <Text size="sm">{consequences[action]}</Text>
          {fields}
          {mutation.error && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              type="submit"
              color={action === "revoke" ? "red" : undefined}
              loading={mutation.isPending}
              disabled={action === "transfer" && !target}
            >
              {title.split(" ")[0]}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
