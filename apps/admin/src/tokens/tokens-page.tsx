import { Alert, Button, Code, CopyButton, Group, NumberInput, Paper, Select, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { ConfirmButton } from "../lib/confirm-button.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { errorMessage } from "../lib/errors.ts";
import { useMe, usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate, PageHeader } from "../lib/ui.tsx";
import { useLookups } from "../licenses/lookups.ts";

/** Personal access tokens; a new token's secret is shown once, with a copy button. */
export function TokensPage() {
  const trpc = useTRPC();
  const can = usePermissions();
  const lookups = useLookups();
  const list = useQuery(trpc.apiTokens.list.queryOptions({}));
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const revoke = useAction(trpc.apiTokens.revoke.mutationOptions(), {
    invalidate: [trpc.apiTokens.pathKey()],
    success: "Token revoked",
  });
  return (
    <>
      <PageHeader title="API tokens">
        {can.manageTokens && <Button onClick={() => setCreating(true)}>New token</Button>}
      </PageHeader>
      {secret && (
        <Alert color="indigo" title="Copy the token now: it is not shown again" mb="md" role="status">
          <Group gap="xs" wrap="nowrap">
            <Code style={{ wordBreak: "break-all" }}>{secret}</Code>
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button size="xs" onClick={copy}>
                  {copied ? "Copied" : "Copy"}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      {revoke.error && (
        <Alert color="red" role="alert" mb="md">
          {errorMessage(revoke.error)}
        </Alert>
      )}
      <Paper withBorder>
        <DataTable
          query={list}
          label="API tokens"
          empty="No API token yet."
          minWidth={640}
          columns={[
            { header: "Name", cell: (t) => t.name },
            { header: "Prefix", cell: (t) => <Code>{t.prefix}</Code> },
            { header: "Company", cell: (t) => lookups.companyName(t.companyId) },
            { header: "Last used", cell: (t) => formatDate(t.lastUsedAt) },
            { header: "Expires", cell: (t) => (t.expiresAt ? formatDate(t.expiresAt) : "never") },
            can.manageTokens && {
              header: "Actions",
              cell: (t) =>
                t.revokedAt ? (
                  <StatusBadge of="token" status="revoked" />
                ) : (
                  <ConfirmButton
                    label="Revoke"
                    title={`Revoke the token ${t.name}?`}
                    action={revoke}
                    run={(close) => revoke.mutate({ id: t.id }, { onSuccess: close })}
                  >
                    Programs that use this token get 401 from now on. A revoked token cannot be restored;
                    create a new one to replace it.
                  </ConfirmButton>
                ),
            },
          ]}
        />
      </Paper>
      {creating && (
        <CreateTokenDialog
          onClose={() => setCreating(false)}
          onCreated={(s) => {
            setSecret(s);
            setCreating(false);
          }}
        />
      )}
    </>
  );
}

function CreateTokenDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const trpc = useTRPC();
  const me = useMe();
  const lookups = useLookups();
  const form = useForm<{ name: string; companyId: string | null; expiresInDays: number | "" }>({
    initialValues: { name: "", companyId: me.companyId, expiresInDays: 90 },
  });
  const create = useAction(trpc.apiTokens.create.mutationOptions(), {
    invalidate: [trpc.apiTokens.pathKey()],
    then: (created) => onCreated(created.secret),
  });
  return (
    <ActionDialog
      title="New API token"
      action={create}
      submitLabel="Create"
      onClose={onClose}
      onSubmit={form.onSubmit((v) =>
        create.mutate({
          name: v.name,
          companyId: v.companyId ?? "",
          expiresInDays: v.expiresInDays === "" ? null : v.expiresInDays,
        }),
      )}
    >
      <TextInput label="Name" required data-autofocus {...form.getInputProps("name")} />
      <Select
        label="Company"
        description="The token acts as an Admin of this company and its subtree"
        required
        searchable
        data={lookups.companyOptions}
        {...form.getInputProps("companyId")}
      />
      <NumberInput
        label="Expires after (days)"
        description="Empty: never"
        min={1}
        max={3650}
        {...form.getInputProps("expiresInDays")}
      />
    </ActionDialog>
  );
}
