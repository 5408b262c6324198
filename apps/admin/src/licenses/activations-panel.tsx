import type { LicenseResponse } from "@licensing/contracts";
import { Button, Paper, Table, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useAction } from "../lib/action.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate, QueryState } from "../lib/ui.tsx";

export function ActivationsPanel({ license, canWrite }: { license: LicenseResponse; canWrite: boolean }) {
  const trpc = useTRPC();
  const activations = useQuery(trpc.activations.list.queryOptions({ id: license.id }));
  const reset = useAction(trpc.activations.reset.mutationOptions(), {
    invalidate: [trpc.activations.pathKey()],
    success: "Activation reset: its seat is free",
    notifyError: true,
  });
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Activations
      </Title>
      <QueryState query={activations} label="activations" empty="No machine has activated this license yet.">
        {(list) => (
          <Table.ScrollContainer minWidth={600}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Machine</Table.Th>
                  <Table.Th>Fingerprint</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Activated</Table.Th>
                  <Table.Th>Last heartbeat</Table.Th>
                  {canWrite && <Table.Th>Actions</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td>{a.machineName ?? "—"}</Table.Td>
                    <Table.Td>{a.hwFingerprint ?? "—"}</Table.Td>
                    <Table.Td>
                      <StatusBadge of="activation" status={a.status} />
                    </Table.Td>
                    <Table.Td>{formatDate(a.activatedAt)}</Table.Td>
                    <Table.Td>{formatDate(a.lastHeartbeatAt)}</Table.Td>
                    {canWrite && (
                      <Table.Td>
                        {a.status === "active" && (
                          <Button
                            size="xs"
                            variant="default"
                            loading={reset.isPending}
                            onClick={() => reset.mutate({ id: license.id, activationId: a.id })}
                          >
                            Reset
                          </Button>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Paper>
  );
}
