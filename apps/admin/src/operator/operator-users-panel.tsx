import type { OperatorUserResponse } from "@licensing/contracts";
import { Button, Group, Paper, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useMe } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate, QueryState } from "../lib/ui.tsx";
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
      <QueryState query={operators} label="operators" empty="No operator account.">
        {(list) => (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="Operators">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>2FA</Table.Th>
                  <Table.Th>Last sign-in</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((u) => (
                  <Table.Tr key={u.id}>
                    <Table.Td>{u.email}</Table.Td>
                    <Table.Td>{u.displayName ?? "—"}</Table.Td>
                    <Table.Td>
                      <StatusBadge of="user" status={u.status} />
                    </Table.Td>
                    <Table.Td>{u.totpEnabled ? "on" : "off"}</Table.Td>
                    <Table.Td>{formatDate(u.lastLoginAt)}</Table.Td>
                    <Table.Td>
                      {u.id === me.id ? (
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
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      {dialog?.kind === "invite" && <InviteOperatorDialog onClose={close} />}
      {dialog?.kind === "promote" && <PromoteDialog onClose={close} />}
      {dialog?.kind === "demote" && <DemoteDialog user={dialog.user} onClose={close} />}
    </Paper>
  );
}
