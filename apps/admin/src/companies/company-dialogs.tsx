import type { CompanyResponse } from "@licensing/contracts";
import { Select, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { reparentTargets } from "./company-tree.ts";

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);

/** Create a company under `parent`, or a root company when `parent` is null (operators). */
export function CreateCompanyDialog({
  parent,
  onClose,
}: {
  parent: CompanyResponse | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const form = useForm({ initialValues: { name: "", slug: "", contactEmail: "" } });
  const create = useAction(trpc.companies.create.mutationOptions(), {
    invalidate: [trpc.companies.pathKey()],
    success: (company) => `Created ${company.name}`,
    then: onClose,
  });
  return (
    <ActionDialog
      title={parent ? `New company under ${parent.name}` : "New root company"}
      action={create}
      submitLabel="Create"
      onClose={onClose}
      onSubmit={form.onSubmit((v) =>
        create.mutate({
          name: v.name,
          slug: v.slug || slugify(v.name),
          parentId: parent?.id ?? null,
          contactEmail: v.contactEmail || null,
        }),
      )}
    >
      <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
      <TextInput
        label="Slug"
        description="Lowercase letters, digits and hyphens; left empty, it is made from the name"
        placeholder={slugify(form.values.name)}
        {...form.getInputProps("slug")}
      />
      <TextInput label="Contact email" type="email" {...form.getInputProps("contactEmail")} />
    </ActionDialog>
  );
}

const ROOT = "__root__";

export function ReparentDialog({
  company,
  companies,
  onClose,
}: {
  company: CompanyResponse;
  companies: CompanyResponse[];
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const form = useForm({ initialValues: { parent: company.parentId ?? ROOT } });
  const move = useAction(trpc.companies.reparent.mutationOptions(), {
    invalidate: [trpc.companies.pathKey()],
    success: `Moved ${company.name}`,
    then: onClose,
  });
  const options = [
    { value: ROOT, label: "No parent (root company)" },
    ...reparentTargets(companies, company).map((c) => ({
      value: c.id,
      label: `${"· ".repeat(c.depth)}${c.name}`,
    })),
  ];
  return (
    <ActionDialog
      title={`Move ${company.name}`}
      action={move}
      submitLabel="Move"
      onClose={onClose}
      onSubmit={form.onSubmit((v) =>
        move.mutate({ id: company.id, newParentId: v.parent === ROOT ? null : v.parent }),
      )}
    >
      <Text size="sm">
        The company moves with its whole subtree; its users and licenses keep their place in it.
      </Text>
      <Select
        label="New parent"
        data={options}
        searchable
        allowDeselect={false}
        {...form.getInputProps("parent")}
      />
    </ActionDialog>
  );
}

export function ArchiveDialog({ company, onClose }: { company: CompanyResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const archive = useAction(trpc.companies.archive.mutationOptions(), {
    invalidate: [trpc.companies.pathKey()],
    success: `Archived ${company.name}`,
    then: onClose,
  });
  return (
    <ActionDialog
      title={`Archive ${company.name}?`}
      action={archive}
      submitLabel="Archive"
      color="red"
      onClose={onClose}
      onSubmit={() => archive.mutate({ id: company.id })}
    >
      <Text size="sm">
        An archived company keeps its history and licenses, but no new license can be issued for it.
      </Text>
    </ActionDialog>
  );
}
