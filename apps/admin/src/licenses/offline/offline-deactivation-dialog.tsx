import type { ActivationResponse, LicenseResponse } from "@licensing/contracts";
import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useMemo, useState } from "react";
import { ActionDialog, useAction } from "../../lib/action.tsx";
import { AnchorLink } from "../../lib/links.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { formatDate } from "../../lib/ui.tsx";
import { BlockInput } from "./block-input.tsx";
import { peekReceipt } from "./offline-blocks.ts";
import { OfflineError } from "./offline-errors.tsx";
import { receiptOutcome } from "./offline-outcome.ts";
import { OutcomeList } from "./outcome-list.tsx";

const formatMs = (ms: number) => formatDate(new Date(ms).toISOString());

/**
 * "Offline deactivation": the receipt a machine without network wrote when it deleted its certificate
 * frees that machine's seat. Before it is sent, the dialog names the activation it will free.
 */
export function OfflineDeactivationDialog({
  license,
  activations,
  onClose,
}: {
  license: LicenseResponse;
  activations: ActivationResponse[];
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const deactivate = useAction(trpc.activations.offlineDeactivate.mutationOptions(), {
    invalidate: [trpc.activations.pathKey(), trpc.licenses.pathKey()],
  });
  const peek = useMemo(() => (text.trim() ? peekReceipt(text) : null), [text]);
  const otherLicense = peek?.ok && peek.value.licenseId !== license.id ? peek.value.licenseId : null;

  if (deactivate.data) {
    const freed = activations.find((a) => a.id === deactivate.data.activationId);
    return (
      <Modal opened onClose={onClose} title={`Offline deactivation on ${license.licenseKey}`} size="lg">
        <Stack>
          <Alert color="indigo" title="Seat freed" role="status">
            {freed?.machineName ?? "The machine"} no longer holds a seat (activation{" "}
            {deactivate.data.activationId}
            {freed ? `, activated ${formatDate(freed.activatedAt)}` : ""}).
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      </Modal>
    );
  }

  return (
    <ActionDialog
      title={`Offline deactivation on ${license.licenseKey}`}
      size="xl"
      action={deactivate}
      error={null}
      submitLabel="Free the seat"
      color="red"
      disabled={!peek?.ok || otherLicense !== null}
      onClose={onClose}
      onSubmit={() => deactivate.mutate({ receipt: text })}
    >
      <Text size="sm">
        A machine activated without network frees its seat by deleting its certificate: it then shows a
        deactivation receipt, which is handed in here.
      </Text>
      <BlockInput
        label="Deactivation receipt"
        description="-----BEGIN LICENSE DEACTIVATION----- … -----END LICENSE DEACTIVATION-----"
        value={text}
        onChange={(next) => {
          deactivate.reset();
          setText(next);
        }}
        uploadLabel="Upload the receipt file…"
      />
      {peek && !peek.ok && (
        <Alert color="yellow" title="Not a receipt the panel can read">
          {peek.problem}
        </Alert>
      )}
      {peek?.ok && (
        <>
          <OutcomeList
            title="What will happen"
            outcomes={receiptOutcome(license, activations, peek.value, { formatDate: formatMs })}
          />
          {otherLicense && (
            <AnchorLink
              to="/licenses/$licenseId"
              params={{ licenseId: otherLicense }}
              size="sm"
              onClick={onClose}
            >
              Open the license it names
            </AnchorLink>
          )}
          <Text size="xs" c="dimmed">
            Written on {formatMs(peek.value.madeAt)} by the machine's clock. The server checks its signature
            with the license key.
          </Text>
        </>
      )}
      <OfflineError error={deactivate.error} title="No seat freed" />
    </ActionDialog>
  );
}
