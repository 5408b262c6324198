import type { LicenseTemplateResponse } from "@licensing/contracts";
import {
  Accordion,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useAction } from "../lib/action.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate, QueryState } from "../lib/ui.tsx";
import { jsonError, pretty } from "./json-field.ts";

const STARTER_SCHEMA = `{
  "type": "object",
  "properties": {
    "features": { "type": "array", "items": { "type": "string" } },
    "limits": {
      "type": "object",
      "properties": { "maxSeats": { "type": "integer", "minimum": 1 } }
    }
  }
}`;

export function VersionsPanel({ template }: { template: LicenseTemplateResponse }) {
  const trpc = useTRPC();
  const can = usePermissions();
  const versions = useQuery(trpc.templates.versions.list.queryOptions({ id: template.id }));
  const [editing, setEditing] = useState(false);
  return (
    <Stack>
      {can.manageTemplates && template.status === "Active" && !editing && (
        <Group>
          <Button onClick={() => setEditing(true)}>New version</Button>
        </Group>
      )}
      {editing && (
        <NewVersionForm template={template} previous={versions.data?.[0]} onDone={() => setEditing(false)} />
      )}
      <QueryState
        query={versions}
        label="versions"
        empty="No version yet: licenses of this template carry an empty configuration."
      >
        {(list) => (
          <Accordion variant="separated">
            {list.map((v) => (
              <Accordion.Item key={v.id} value={v.id}>
                <Accordion.Control>
                  <Group gap="xs">
                    <Text fw={600}>Version {v.version}</Text>
                    {v.id === template.currentVersionId && <Badge>current</Badge>}
                    <Text size="sm" c="dimmed">
                      {formatDate(v.createdAt)} {v.changelog ? `· ${v.changelog}` : ""}
                    </Text>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <Text size="sm" fw={600}>
                    Config schema
                  </Text>
                  <Code block>{pretty(v.configSchema)}</Code>
                  <Text size="sm" fw={600} mt="sm">
                    Defaults
                  </Text>
                  <Code block>{pretty(v.defaults)}</Code>
                  <TypesDownload templateId={template.id} version={v.version} />
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </QueryState>
    </Stack>
  );
}

/**
 * The version's config as TypeScript, for `LicenseClient<Config>` of the SDK: the server generates it
 * (`templates.versions.types`, decision 0043), the same file `licensing-codegen` writes.
 */
function TypesDownload({ templateId, version }: { templateId: string; version: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<{ pending: boolean; error: unknown }>({ pending: false, error: null });
  const download = async () => {
    setState({ pending: true, error: null });
    try {
      const types = await queryClient.fetchQuery(
        trpc.templates.versions.types.queryOptions({ id: templateId, version }),
      );
      const url = URL.createObjectURL(new Blob([types.source], { type: "text/plain" }));
      Object.assign(document.createElement("a"), { href: url, download: types.fileName }).click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState({ pending: false, error: null });
    } catch (error) {
      setState({ pending: false, error });
    }
  };
  return (
    <Group mt="sm">
      <Button variant="default" size="xs" loading={state.pending} onClick={() => void download()}>
        Download TypeScript types
      </Button>
      {state.error !== null && (
        <Text c="red" size="sm" role="alert">
          {errorMessage(state.error)}
        </Text>
      )}
    </Group>
  );
}

function NewVersionForm({
  template,
  previous,
  onDone,
}: {
  template: LicenseTemplateResponse;
  previous: { configSchema: string; defaults: string } | undefined;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const form = useForm({
    initialValues: {
      configSchema: previous ? pretty(previous.configSchema) : STARTER_SCHEMA,
      defaults: previous ? pretty(previous.defaults) : "{}",
      changelog: "",
    },
    validateInputOnChange: true,
    validate: { configSchema: jsonError, defaults: (v) => (v.trim() === "" ? null : jsonError(v)) },
  });
  const create = useAction(trpc.templates.versions.create.mutationOptions(), {
    invalidate: [trpc.templates.pathKey()],
    success: (v) => `Version ${v.version} created`,
    then: onDone,
  });
  const code = errorCode(create.error);
  const serverError = (field: string) =>
    code === `template.invalid_${field}` ? errorMessage(create.error) : undefined;
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        New version of {template.name}
      </Title>
      <form
        onSubmit={form.onSubmit((v) =>
          create.mutate({
            id: template.id,
            configSchema: v.configSchema,
            defaults: v.defaults.trim() || null,
            changelog: v.changelog || null,
          }),
        )}
      >
        <Stack>
          <Textarea
            label="Config schema (JSON Schema)"
            description="Licenses of this version are checked against it; the issue form is built from it"
            autosize
            minRows={8}
            maxRows={24}
            spellCheck={false}
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
            {...form.getInputProps("configSchema")}
            error={form.errors.configSchema ?? serverError("config_schema")}
          />
          <Textarea
            label="Defaults (JSON object)"
            autosize
            minRows={3}
            maxRows={12}
            spellCheck={false}
            styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
            {...form.getInputProps("defaults")}
            error={form.errors.defaults ?? serverError("defaults")}
          />
          <TextInput label="Changelog" {...form.getInputProps("changelog")} />
          {create.error && !serverError("config_schema") && !serverError("defaults") && (
            <Text c="red" role="alert">
              {errorMessage(create.error)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create the version
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
