import {
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Table,
  Textarea,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { AnchorLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { PageHeader, QueryState } from "../lib/ui.tsx";

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
        <QueryState query={list} label="templates" empty={`No ${status.toLowerCase()} template.`}>
          {(templates) => (
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Product code</Table.Th>
                    <Table.Th>Offline days</Table.Th>
                    <Table.Th>Validity days</Table.Th>
                    <Table.Th>Versions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {templates.map((t) => (
                    <Table.Tr key={t.id}>
                      <Table.Td>
                        <AnchorLink to="/templates/$templateId" params={{ templateId: t.id }}>
                          {t.name}
                        </AnchorLink>
                      </Table.Td>
                      <Table.Td>{t.productCode}</Table.Td>
                      <Table.Td>{t.defaultOfflineDays}</Table.Td>
                      <Table.Td>{t.defaultValidityDays}</Table.Td>
                      <Table.Td>{t.currentVersionId ? <Badge>versioned</Badge> : "none yet"}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
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
    },
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
      onSubmit={form.onSubmit((v) => create.mutate({ ...v, description: v.description || null }))}
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
    </ActionDialog>
  );
}
