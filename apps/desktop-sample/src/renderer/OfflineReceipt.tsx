import { Button, Card, Group, Stack, Text, Textarea, Title } from "@mantine/core";
import { useState } from "react";
import { bridge } from "./bridge.ts";
import { ErrorAlert } from "./ErrorAlert.tsx";
import { MONOSPACE } from "./OfflineActivation.tsx";
import { useAction } from "./use-action.ts";

/**
 * The receipt of an offline deactivation: the vendor frees the seat with it, and it cannot be made again,
 * so it stays on screen (and on disk) until the user says it was handed in.
 */
export function OfflineReceipt({ receipt }: { receipt: string }) {
  const { busy, error, run, clearError } = useAction();
  const [copied, setCopied] = useState(false);
  const offline = bridge().offline;
  return (
    <Card
      withBorder
      padding="lg"
      aria-labelledby="receipt-title"
      style={{ borderColor: "var(--mantine-color-orange-6)", borderWidth: 2 }}
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="receipt-title">
          Give this receipt to your vendor
        </Title>
        <Text>
          Acme Editor was deactivated on this computer. Give this receipt to your vendor: it frees the seat
          this computer held. It cannot be made again, so it stays here until you say it was handed in.
        </Text>
        <Textarea
          label="Deactivation receipt"
          value={receipt}
          readOnly
          autosize
          minRows={5}
          styles={MONOSPACE}
          data-testid="offline-receipt"
        />
        <Group gap="xs">
          <Button
            variant="light"
            loading={busy === "copy"}
            onClick={() => void run("copy", () => offline.copy("receipt")).then((ok) => setCopied(ok))}
          >
            Copy receipt
          </Button>
          <Button
            variant="default"
            loading={busy === "save"}
            onClick={() => void run("save", () => offline.save("receipt"))}
          >
            Save as file…
          </Button>
          <Button
            variant="subtle"
            color="gray"
            loading={busy === "forget"}
            onClick={() => void run("forget", () => offline.forgetReceipt())}
          >
            It was handed in: stop showing it
          </Button>
          {copied && (
            <Text size="sm" c="teal.9" role="status">
              Copied to the clipboard
            </Text>
          )}
        </Group>
        <ErrorAlert error={error} onClose={clearError} />
      </Stack>
    </Card>
  );
}
