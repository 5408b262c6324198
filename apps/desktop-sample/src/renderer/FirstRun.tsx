import { Button, Card, Divider, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState, type FormEvent } from "react";
import type { LicenseView } from "../shared/bridge.ts";
import { bridge } from "./bridge.ts";
import { ErrorAlert } from "./ErrorAlert.tsx";
import { useAction } from "./use-action.ts";

/** No license yet: choose the `.lic` file, or paste the key and fetch the file from the vendor's address. */
export function FirstRun({ view }: { view: LicenseView }) {
  const { busy, error, run, clearError } = useAction();
  const [licenseKey, setLicenseKey] = useState("");
  const [url, setUrl] = useState("");
  const fetchFile = (event: FormEvent) => {
    event.preventDefault();
    void run("fetch", () => bridge().fetchLicense({ licenseKey, url }));
  };
  return (
    <Card withBorder padding="xl" maw={620} mx="auto" mt="xl">
      <Stack>
        <Title order={2}>Activate Acme Editor</Title>
        <Text c="dimmed">
          This copy has no license yet. Choose the license file (<code>.lic</code>) your administrator sent
          you, or paste your license key. Licensing server: <code>{view.serverUrl}</code>
        </Text>
        <Button
          size="md"
          loading={busy === "choose"}
          onClick={() => void run("choose", () => bridge().chooseLicenseFile())}
        >
          Choose license file…
        </Button>
        <Divider label="or paste a license key" labelPosition="center" />
        <form onSubmit={fetchFile} aria-label="Fetch the license file for a key">
          <Stack gap="sm">
            <TextInput
              label="License key"
              placeholder="SVC-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX"
              value={licenseKey}
              onChange={(event) => setLicenseKey(event.currentTarget.value)}
              required
              autoComplete="off"
              spellCheck={false}
            />
            <TextInput
              label="License file address"
              description="Where your vendor publishes license files; {licenseKey} is replaced by the key"
              placeholder="https://licenses.example.com/files/{licenseKey}.lic"
              value={url}
              onChange={(event) => setUrl(event.currentTarget.value)}
              required
              type="url"
            />
            <Button type="submit" variant="light" loading={busy === "fetch"}>
              Fetch license file
            </Button>
          </Stack>
        </form>
        <ErrorAlert error={error} onClose={clearError} />
      </Stack>
    </Card>
  );
}
