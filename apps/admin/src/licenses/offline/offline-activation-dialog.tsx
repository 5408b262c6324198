import type { ActivationResponse, LicenseResponse } from "@licensing/contracts";
import {
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from "@mantine/core";
import { useMemo, useState } from "react";
import { ActionDialog, useAction } from "../../lib/action.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { Field, formatDate } from "../../lib/ui.tsx";
import { BlockInput } from "./block-input.tsx";
import { peekRequest } from "./offline-blocks.ts";
import { OfflineError } from "./offline-errors.tsx";
import { requestOutcome } from "./offline-outcome.ts";
import { OutcomeList } from "./outcome-list.tsx";

const formatMs = (ms: number) => formatDate(new Date(ms).toISOString());
const MAX_DAYS = 36_500;

/**
 * "Offline activation": the request a machine without network made, pasted or uploaded; what the server
 * will do with it, read from the request and this page before anything is sent; then the response to carry
 * back, to copy or download.
 */
export function OfflineActivationDialog({
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
  const [validDays, setValidDays] = useState<number | string>("");
  const days = typeof validDays === "number" ? validDays : null;
  const activate = useAction(trpc.activations.offlineActivate.mutationOptions(), {
    invalidate: [trpc.activations.pathKey(), trpc.licenses.pathKey()],
  });
  const peek = useMemo(() => (text.trim() ? peekRequest(text) : null), [text]);
  const [now] = useState(() => Date.now());

  if (activate.data) {
    const machine = peek?.ok ? peek.value.machineName : null;
    return (
      <OfflineResponse
        license={license}
        machine={machine}
        activationId={activate.data.activationId}
        response={activate.data.response}
        onClose={onClose}
      />
    );
  }

  return (
    <ActionDialog
      title={`Offline activation of ${license.licenseKey}`}
      size="xl"
      action={activate}
      error={null}
      submitLabel="Activate the machine"
      disabled={!peek?.ok}
      onClose={onClose}
      onSubmit={() =>
        activate.mutate({ id: license.id, request: text, ...(days !== null && { validDays: days }) })
      }
    >
      <Text size="sm">
        For a machine that never goes online: it made an activation request (a block of text, or its QR code).
        The response you get here activates it until the date below, with no network call.
      </Text>
      <BlockInput
        label="Activation request"
        description="-----BEGIN LICENSE ACTIVATION REQUEST----- … -----END LICENSE ACTIVATION REQUEST-----"
        value={text}
        onChange={(next) => {
          activate.reset();
          setText(next);
        }}
        uploadLabel="Upload the request file…"
      />
      <NumberInput
        label="Valid for (days)"
        description={`Empty: until the license expires (${formatDate(license.expiresAt)}); never past it`}
        min={1}
        max={MAX_DAYS}
        allowDecimal={false}
        allowNegative={false}
        value={validDays}
        onChange={setValidDays}
        w={{ base: "100%", sm: 420 }}
      />
      {peek && !peek.ok && (
        <Alert color="yellow" title="Not a request the panel can read">
          {peek.problem}
        </Alert>
      )}
      {peek?.ok && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }} aria-label="The request" role="group">
            <Field label="Machine">{peek.value.machineName ?? "no name given"}</Field>
            <Field label="Made on">{formatMs(peek.value.madeAt)} (by the machine's clock)</Field>
            <Field label="Fingerprint">
              <Text span size="sm" style={{ overflowWrap: "anywhere" }}>
                {peek.value.fingerprint}
              </Text>
            </Field>
            <Field label="Components">{peek.value.componentKinds.join(", ") || "none"}</Field>
          </SimpleGrid>
          <OutcomeList
            title="What will happen"
            outcomes={requestOutcome(license, activations, peek.value, {
              validDays: days,
              now,
              formatDate: formatMs,
            })}
          />
          <Text size="xs" c="dimmed">
            The server checks the request's signature with the license key before anything is stored.
          </Text>
        </>
      )}
      <OfflineError error={activate.error} title="Not activated" />
    </ActionDialog>
  );
}

/** The response block to carry back to the machine, with Copy and Download. */
function OfflineResponse({
  license,
  machine,
  activationId,
  response,
  onClose,
}: {
  license: LicenseResponse;
  machine: string | null;
  activationId: string;
  response: string;
  onClose: () => void;
}) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([response], { type: "text/plain" }));
    Object.assign(document.createElement("a"), {
      href: url,
      download: `${license.licenseKey}-activation.txt`,
    }).click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <Modal opened onClose={onClose} title={`Offline activation of ${license.licenseKey}`} size="xl">
      <Stack>
        <Alert color="indigo" title="Activated" role="status">
          {machine ?? "The machine"} is activated on this license (activation {activationId}). Carry this
          response back to it: it works from the moment it is applied there.
        </Alert>
        <Textarea
          label="Activation response"
          value={response}
          readOnly
          autosize
          minRows={6}
          styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 12 } }}
        />
        <Group justify="flex-end">
          <CopyButton value={response}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? "Copied" : "Copy the response"}
              </Button>
            )}
          </CopyButton>
          <Button variant="default" onClick={download}>
            Download the response
          </Button>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
