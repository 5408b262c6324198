import { DEFAULT_REVOCATION } from "@licensing/contracts";
import {
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { AnchorLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { PageHeader } from "../lib/ui.tsx";
import { describeLimit, templateDeviceRequest, templateDeviceValues } from "../licenses/device-terms.ts";
import { REVOCATION_MODES } from "../licenses/revocation-terms.ts";
import { TemplateDeviceFields } from "./device-fields.tsx";
import { TemplateSeatFields } from "./seat-fields.tsx";
import { templateSeatRequest, templateSeatValidate, templateSeatValues } from "../licenses/seat-terms.ts";
import { RevocationField } from "./revocation-field.tsx";

export function TemplatesPage() {
  const trpc = useTRPC();
  const can = usePermissions();
  const [status, setStatus] = useState<"Active" | "Archived">("Active");
  const list = useQuery(trpc.templates.list.queryOptions({ status }));
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader title="Templates">
        {can.manageTemplates && <Button onClick={() => setCreating(true)}>New template</Button>}
      </PageHeader>
      <SegmentedControl
        mb="sm"
        aria-label="Template status"
        data={["Active", "Archived"]}
        value={status}
        onChange={(v) => setStatus(v as "Active" | "Archived")}
      />
      <Paper withBorder>
        <DataTable
          query={list}
          label="templates"
          empty={`No ${status.toLowerCase()} template.`}
          minWidth={760}
          striped
          columns={[
            {
              header: "Name",
              cell: (t) => (
                <AnchorLink to="/templates/$templateId" params={{ templateId: t.id }}>
                  {t.name}
                </AnchorLink>
              ),
            },
            { header: "Product code", cell: (t) => t.productCode },
            { header: "Offline days", cell: (t) => t.defaultOfflineDays },
            { header: "Validity days", cell: (t) => t.defaultValidityDays },
            { header: "Matching", cell: (t) => t.fingerprintMatch },
            {
              header: "New devices",
              cell: (t) => describeLimit(t.maxNewDevicesPerWindow, t.newDeviceWindowDays),
            },
            { header: "Revocation", cell: (t) => REVOCATION_MODES[t.revocation].name },
            { header: "Versions", cell: (t) => (t.currentVersionId ? <Badge>versioned</Badge> : "none yet") },
          ]}
        />
      </Paper>
      {creating && <CreateTemplateDialog onClose={() => setCreating(false)} />}
    </>
  );
}

function CreateTemplateDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: {
      name: "",
      productCode: "",
      description: "",
      defaultOfflineDays: 7,
      defaultValidityDays: 365,
      ...templateDeviceValues(),
      revocation: DEFAULT_REVOCATION,
      ...templateSeatValues(),
    },
    validate: templateSeatValidate,
  });
  const create = useAction(trpc.templates.create.mutationOptions(), {
    invalidate: [trpc.templates.pathKey()],
    then: (t) => navigate({ to: "/templates/$templateId", params: { templateId: t.id } }),
  });
  const codeTaken = errorCode(create.error) === "template.product_code_taken";
  return (
    <ActionDialog
      title="New template"
      action={create}
      error={codeTaken ? null : create.error}
      submitLabel="Create"
      onClose={onClose}
      onSubmit={form.onSubmit((v) =>
        create.mutate({
          ...v,
          description: v.description || null,
          ...templateDeviceRequest(v),
          ...templateSeatRequest(v),
        }),
      )}
    >
      <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
      <TextInput
        label="Product code"
        description="Fixed once created; unique regardless of case"
        required
        {...form.getInputProps("productCode")}
        error={codeTaken ? errorMessage(create.error) : undefined}
      />
      <Textarea label="Description" autosize minRows={2} {...form.getInputProps("description")} />
      <Group grow>
        <NumberInput label="Offline days" min={1} max={30} {...form.getInputProps("defaultOfflineDays")} />
        <NumberInput
          label="Validity days"
          min={1}
          max={36500}
          {...form.getInputProps("defaultValidityDays")}
        />
      </Group>
      <TemplateDeviceFields inputProps={form.getInputProps} />
      <TemplateSeatFields values={form.values} inputProps={form.getInputProps} />
      <RevocationField inputProps={form.getInputProps("revocation")} />
    </ActionDialog>
  );
}
