import { Button, Card, Group, Stack, Text, Textarea, Title } from "@mantine/core";
import { useState } from "react";
import type { LicenseView } from "../shared/bridge.ts";
import { bridge } from "./bridge.ts";
import { ErrorAlert } from "./ErrorAlert.tsx";
import { useAction } from "./use-action.ts";

/** Only an image the main process drew: a base64 SVG data URL, shown in an <img> (it runs no script). */
export const isQrImage = (url: string) => /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/.test(url);

export const MONOSPACE = { input: { fontFamily: "var(--mantine-font-family-monospace)", fontSize: 12 } };

/**
 * "Activate without internet" (decision 0050): the request for the vendor's panel, as text and as a QR
 * code, then the vendor's response, pasted or loaded from a file. Once applied the app is Active until the
 * agreed date and makes no network call (the app closes this screen when the view says so).
 */
export function OfflineActivation({ view, onClose }: { view: LicenseView; onClose: () => void }) {
  const { busy, error, run, clearError } = useAction();
  const [response, setResponse] = useState("");
  const [copied, setCopied] = useState(false);
  const offline = bridge().offline;
  const { request } = view.offline;
  const create = () => void run("create", () => offline.createRequest());
  return (
    <Card withBorder padding="xl" maw={1000} w="100%" mx="auto" aria-labelledby="offline-title">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Title order={2} id="offline-title">
            Activate without internet
          </Title>
          <Button variant="default" onClick={onClose}>
            Back
          </Button>
        </Group>
        <Text>
          For a computer that cannot reach the licensing server: give your vendor the activation request
          below, and enter the response they send back. Acme Editor then works until the date agreed with
          them, without ever going online.
        </Text>

        <Title order={3} size="h4">
          1. Give this request to your vendor
        </Title>
        {request ? (
          <Group align="flex-start" wrap="nowrap" gap="lg">
            {isQrImage(request.qrCode) && (
              <img
                src={request.qrCode}
                alt="QR code of the activation request"
                width={232}
                height={232}
                data-testid="offline-qr"
              />
            )}
            <Stack gap="xs" style={{ flex: 1 }}>
              <Textarea
                label="Activation request"
                value={request.text}
                readOnly
                autosize
                minRows={8}
                styles={MONOSPACE}
                data-testid="offline-request"
              />
              <Group gap="xs">
                <Button
                  variant="light"
                  loading={busy === "copy"}
                  onClick={() => void run("copy", () => offline.copy("request")).then((ok) => setCopied(ok))}
                >
                  Copy request
                </Button>
                <Button
                  variant="default"
                  loading={busy === "save"}
                  onClick={() => void run("save", () => offline.save("request"))}
                >
                  Save as file…
                </Button>
                <Button variant="subtle" loading={busy === "create"} onClick={create}>
                  Make a new request
                </Button>
                {copied && (
                  <Text size="sm" c="teal.9" role="status">
                    Copied to the clipboard
                  </Text>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                Send it by mail, carry it as a file, or let your vendor scan the code with a phone. It holds
                this computer&apos;s fingerprint and name, not your license key. Only the answer to the newest
                request works: make a new one only if this one was lost.
              </Text>
            </Stack>
          </Group>
        ) : (
          <Group>
            <Button loading={busy === "create"} onClick={create}>
              Make the activation request
            </Button>
          </Group>
        )}

        <Title order={3} size="h4">
          2. Enter your vendor&apos;s response
        </Title>
        <Textarea
          label="Activation response"
          description="-----BEGIN LICENSE ACTIVATION----- … -----END LICENSE ACTIVATION-----"
          value={response}
          onChange={(event) => {
            clearError();
            setResponse(event.currentTarget.value);
          }}
          autosize
          minRows={5}
          spellCheck={false}
          autoComplete="off"
          styles={MONOSPACE}
        />
        <Group>
          <Button
            disabled={!response.trim() || busy !== null}
            loading={busy === "apply"}
            onClick={() => void run("apply", () => offline.applyResponse(response))}
          >
            Activate
          </Button>
          <Button
            variant="default"
            disabled={busy !== null}
            loading={busy === "file"}
            onClick={() => void run("file", () => offline.chooseResponseFile())}
          >
            Load response file…
          </Button>
        </Group>
        <ErrorAlert error={error} onClose={clearError} />
      </Stack>
    </Card>
  );
}
