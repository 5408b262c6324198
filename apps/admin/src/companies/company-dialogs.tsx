import type { CompanyResponse } from "@licensing/contracts";
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";
import { reparentTargets } from "./company-tree.ts";

const slugify = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);

function useInvalidateCompanies() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.companies.pathKey() });
}

/** Create a company under `parent`, or a root company when `parent` is null (operators). */
export function CreateCompanyDialog({
  parent,
  opened,
  onClose,
}: {
  parent: CompanyResponse | null;
  opened: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const invalidate = useInvalidateCompanies();
  const form = useForm({ initialValues: { name: "", slug: "", contactEmail: "" } });
  const create = useMutation(
    trpc.companies.create.mutationOptions({
      onSuccess: async (company) => {
        await invalidate();
        notifications.show({ color: "green", message: `Created ${company.name}` });
        form.reset();
        onClose();
      },
    }),
  );
  const slugError = create.error && errorMessage(create.error);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={parent ? `New company under ${parent.name}` : "New root company"}
    >
      <form
        onSubmit={form.onSubmit((v) =>
          create.mutate({
            name: v.name,
            slug: v.slug || slugify(v.name),
            parentId: parent?.id ?? null,
            contactEmail: v.contactEmail || null,
          }),
        )}
      >
        <Stack>
          <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
          <TextInput
            label="Slug"
            description="Lowercase letters, digits and hyphens; left empty, it is made from the name"
            placeholder={slugify(form.values.name)}
            {...form.getInputProps("slug")}
          />
          <TextInput label="Contact email" type="email" {...form.getInputProps("contactEmail")} />
          {slugError && (
            <Alert color="red" role="alert">
              {slugError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
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
  const invalidate = useInvalidateCompanies();
  const form = useForm({ initialValues: { parent: company.parentId ?? ROOT } });
  const move = useMutation(
    trpc.companies.reparent.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        notifications.show({ color: "green", message: `Moved ${company.name}` });
        onClose();
      },
    }),
  );
  const options = [
    { value: ROOT, label: "No parent (root company)" },
    ...reparentTargets(companies, company).map((c) => ({
      value: c.id,
      label: `${"· ".repeat(c.depth)}${c.name}`,
    })),
  ];
  return (
    <Modal opened onClose={onClose} title={`Move ${company.name}`}>
      <form
        onSubmit={form.onSubmit((v) =>
          move.mutate({ id: company.id, newParentId: v.parent === ROOT ? null : v.parent }),
        )}
      >
        <Stack>
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
          {move.error && (
            <Alert color="red" role="alert">
              {errorMessage(move.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={move.isPending}>
              Move
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function ArchiveDialog({ company, onClose }: { company: CompanyResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const invalidate = useInvalidateCompanies();
  const archive = useMutation(
    trpc.companies.archive.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        notifications.show({ color: "green", message: `Archived ${company.name}` });
        onClose();
      },
    }),
  );
  return (
    <Modal opened onClose={onClose} title={`Archive ${company.name}?`}>
      <Stack>
        <Text size="sm">
          An archived company keeps its history and licenses, but no new license can be issued for it.
        </Text>
        {archive.error && (
          <Alert color="red" role="alert">
            {errorMessage(archive.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={archive.isPending} onClick={() => archive.mutate({ id: company.id })}>
            Archive
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
