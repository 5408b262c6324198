import type { CompanyResponse } from "@licensing/contracts";
import { Button, Group, Paper, Select, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { ConfirmButton } from "../lib/confirm-button.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";

/** Users and pending invitations of a company (its own members, not the subtree's). */
export function UsersPanel({ company }: { company: CompanyResponse }) {
  const trpc = useTRPC();
  const can = usePermissions();
  const [inviting, setInviting] = useState(false);
  const users = useQuery({
    ...trpc.users.list.queryOptions({ companyId: company.id }),
    select: (list) => list.filter((u) => u.companyId === company.id),
  });
  const resend = useAction(trpc.users.resendInvite.mutationOptions(), {
    success: "Sent a new invitation",
    notifyError: true,
  });
  const deactivate = useAction(trpc.users.deactivate.mutationOptions(), {
    invalidate: [trpc.users.list.pathKey()],
    success: "User deactivated",
  });

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Users and invitations
        </Title>
        {can.manageUsers && company.status === "Active" && (
          <Button onClick={() => setInviting(true)}>Invite a user</Button>
        )}
      </Group>
      <DataTable
        query={users}
        label="users"
        empty="No user in this company yet."
        minWidth={560}
        columns={[
          { header: "Email", cell: (u) => u.email },
          { header: "Role", cell: (u) => u.role },
          { header: "Status", cell: (u) => <StatusBadge of="user" status={u.status} /> },
          { header: "Last sign-in", cell: (u) => formatDate(u.lastLoginAt) },
          can.manageUsers && {
            header: "Actions",
            cell: (u) => (
              <Group gap="xs" wrap="nowrap">
                {u.status === "pending" && (
                  <Button size="xs" variant="default" onClick={() => resend.mutate({ id: u.id })}>
                    Resend
                  </Button>
                )}
                {u.status !== "revoked" && (
                  <ConfirmButton
                    label="Deactivate"
                    title={`Deactivate ${u.email}?`}
                    action={deactivate}
                    run={(close) => deactivate.mutate({ id: u.id }, { onSuccess: close })}
                  >
                    {u.status === "pending"
                      ? "The invitation link stops working."
                      : "They are signed out everywhere and can no longer sign in."}{" "}
                    A new invitation brings the account back.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
      {inviting && <InviteDialog company={company} onClose={() => setInviting(false)} />}
    </Paper>
  );
}

function InviteDialog({ company, onClose }: { company: CompanyResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const can = usePermissions();
  const form = useForm<{ email: string; role: "owner" | "admin" | "viewer" }>({
    initialValues: { email: "", role: "viewer" },
  });
  const invite = useAction(trpc.users.invite.mutationOptions(), {
    invalidate: [trpc.users.list.pathKey()],
    success: (u) => `Invited ${u.email}`,
    then: onClose,
  });
  const roles = [
    ...(can.grantOwner ? [{ value: "owner", label: "Owner: everything in this subtree" }] : []),
    { value: "admin", label: "Admin: issue and revoke licenses, add companies" },
    { value: "viewer", label: "Viewer: read only" },
  ];
  return (
    <ActionDialog
      title={`Invite a user to ${company.name}`}
      action={invite}
      submitLabel="Send the invitation"
      onClose={onClose}
      onSubmit={form.onSubmit((v) => invite.mutate({ email: v.email, role: v.role, companyId: company.id }))}
    >
      <TextInput label="Email" type="email" required data-autofocus {...form.getInputProps("email")} />
      <Select label="Role" data={roles} allowDeselect={false} {...form.getInputProps("role")} />
    </ActionDialog>
  );
}
