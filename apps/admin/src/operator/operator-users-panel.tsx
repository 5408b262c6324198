import type { OperatorUserResponse } from "@licensing/contracts";
import { Button, Group, Paper, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "../lib/data-table.tsx";
import { useMe } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";
import { DemoteDialog, InviteOperatorDialog, PromoteDialog } from "./operator-user-dialogs.tsx";

type Dialog = { kind: "invite" } | { kind: "promote" } | { kind: "demote"; user: OperatorUserResponse };

/** Every operator account, with invitations and the grant or withdrawal of operator rights. */
export function OperatorUsersPanel() {
  const trpc = useTRPC();
  const me = useMe();
  const operators = useQuery(trpc.operator.users.list.queryOptions());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Operators
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => setDialog({ kind: "promote" })}>
            Promote a user
          </Button>
          <Button onClick={() => setDialog({ kind: "invite" })}>Invite an operator</Button>
        </Group>
      </Group>
      <DataTable
        query={operators}
        label="operators"
        empty="No operator account."
        minWidth={640}
        aria-label="Operators"
        columns={[
          { header: "Email", cell: (u) => u.email },
          { header: "Name", cell: (u) => u.displayName ?? "—" },
          { header: "Status", cell: (u) => <StatusBadge of="user" status={u.status} /> },
          { header: "2FA", cell: (u) => (u.totpEnabled ? "on" : "off") },
          { header: "Last sign-in", cell: (u) => formatDate(u.lastLoginAt) },
          {
            header: "Actions",
            cell: (u) =>
              u.id === me.id ? (
                <Text size="sm" c="dimmed">
                  You
                </Text>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  color="red"
                  aria-label={`Demote ${u.email}`}
                  onClick={() => setDialog({ kind: "demote", user: u })}
                >
                  Demote
                </Button>
              ),
          },
        ]}
      />
      {dialog?.kind === "invite" && <InviteOperatorDialog onClose={close} />}
      {dialog?.kind === "promote" && <PromoteDialog onClose={close} />}
      {dialog?.kind === "demote" && <DemoteDialog user={dialog.user} onClose={close} />}
    </Paper>
  );
}
