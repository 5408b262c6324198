import type { LicenseTemplateResponse } from "@licensing/contracts";
import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  Stack,
  Tabs,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useAction } from "../lib/action.tsx";
import { errorMessage } from "../lib/errors.ts";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { PageHeader, QueryState } from "../lib/ui.tsx";
import { REVOCATION_MODES } from "../licenses/revocation-terms.ts";
import { templateDeviceRequest, templateDeviceValues } from "../licenses/device-terms.ts";
import { TemplateDeviceFields } from "./device-fields.tsx";
import { TemplateSeatFields } from "./seat-fields.tsx";
import { templateSeatRequest, templateSeatValidate, templateSeatValues } from "../licenses/seat-terms.ts";
import { RevocationField } from "./revocation-field.tsx";
import { RevocationListPanel } from "./revocation-list-panel.tsx";
import { SigningKeysPanel } from "./signing-keys-panel.tsx";
import { VersionsPanel } from "./versions-panel.tsx";

const route = getRouteApi("/app/templates/$templateId");

export function TemplatePage() {
  const { templateId } = route.useParams();
  const trpc = useTRPC();
  const template = useQuery(trpc.templates.get.queryOptions({ id: templateId }));
  return (
    <QueryState query={template} label="the template">
      {(t) => (
        <Stack>
          <PageHeader
            title={
              <>
                {t.name} <Badge>{t.productCode}</Badge>{" "}
                <Badge variant="light" color={t.revocation === "immediate" ? "red" : "gray"}>
                  {REVOCATION_MODES[t.revocation].name} revocation
                </Badge>{" "}
                {t.status === "Archived" && <StatusBadge of="template" status={t.status} />}
              </>
            }
          />
          <Tabs defaultValue="versions" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="versions">Versions</Tabs.Tab>
              <Tabs.Tab value="settings">Settings</Tabs.Tab>
              <Tabs.Tab value="keys">Signing keys</Tabs.Tab>
              <Tabs.Tab value="revocations">Revocation list</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="versions" pt="md">
              <VersionsPanel template={t} />
            </Tabs.Panel>
            <Tabs.Panel value="settings" pt="md">
              <SettingsPanel template={t} />
            </Tabs.Panel>
            <Tabs.Panel value="keys" pt="md">
              <SigningKeysPanel template={t} />
            </Tabs.Panel>
            <Tabs.Panel value="revocations" pt="md">
              <RevocationListPanel template={t} />
            </Tabs.Panel>
          </Tabs>
        </Stack>
      )}
    </QueryState>
  );
}

function SettingsPanel({ template }: { template: LicenseTemplateResponse }) {
  const trpc = useTRPC();
  const can = usePermissions();
  const editable = can.manageTemplates && template.status === "Active";
  const form = useForm({
    initialValues: {
      name: template.name,
      description: template.description ?? "",
      defaultOfflineDays: template.defaultOfflineDays,
      defaultValidityDays: template.defaultValidityDays,
      ...templateDeviceValues(template),
      revocation: template.revocation,
      ...templateSeatValues(template),
    },
    validate: templateSeatValidate,
  });
  const update = useAction(trpc.templates.update.mutationOptions(), {
    invalidate: [trpc.templates.pathKey()],
    success: "Template saved",
  });
  const archive = useAction(trpc.templates.archive.mutationOptions(), {
    invalidate: [trpc.templates.pathKey()],
    success: "Template archived",
  });
  return (
    <Paper withBorder p="md" maw={640}>
      <form
        onSubmit={form.onSubmit((v) =>
          update.mutate({
            id: template.id,
            ...v,
            description: v.description || null,
            ...templateDeviceRequest(v),
            ...templateSeatRequest(v),
          }),
        )}
      >
        <Stack>
          <TextInput label="Name" disabled={!editable} {...form.getInputProps("name")} />
          <Textarea
            label="Description"
            autosize
            minRows={2}
            disabled={!editable}
            {...form.getInputProps("description")}
          />
          <Group grow>
            <NumberInput
              label="Default offline days"
              min={1}
              max={30}
              disabled={!editable}
              {...form.getInputProps("defaultOfflineDays")}
            />
            <NumberInput
              label="Default validity days"
              min={1}
              max={36500}
              disabled={!editable}
              {...form.getInputProps("defaultValidityDays")}
            />
          </Group>
          <TemplateDeviceFields inputProps={form.getInputProps} disabled={!editable} />
          <TemplateSeatFields values={form.values} inputProps={form.getInputProps} disabled={!editable} />
          <RevocationField inputProps={form.getInputProps("revocation")} disabled={!editable} />
          {(update.error ?? archive.error) && (
            <Alert color="red" role="alert">
              {errorMessage(update.error ?? archive.error)}
            </Alert>
          )}
          {editable && (
            <Group justify="space-between">
              <Button
                color="red"
                loading={archive.isPending}
                onClick={() => archive.mutate({ id: template.id })}
              >
                Archive the template
              </Button>
              <Button type="submit" loading={update.isPending}>
                Save
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
