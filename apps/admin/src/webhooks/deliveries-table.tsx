import type { WebhookDeliveryResponse } from "@licensing/contracts";
import { Alert, Button, Code, Group, Paper, SimpleGrid, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { useAction } from "../lib/action.tsx";
import { errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate, QueryState } from "../lib/ui.tsx";
import { unclipped } from "./webhooks-page.tsx";

const LIMIT = 50;
// While a delivery is Pending the list follows it; the server's workers poll every 15 seconds.
const POLL_MS = 2_000;
const COLUMNS = 9;

/** An endpoint's latest deliveries, newest first; a row opens on its payload and the response. */
export function DeliveriesTable({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const deliveries = useQuery({
    ...trpc.webhooks.deliveries.queryOptions({ id: endpointId, limit: LIMIT }),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === "Pending") ? POLL_MS : false),
  });
  const [open, setOpen] = useState<string | null>(null);
  const replay = useAction(trpc.webhooks.replay.mutationOptions(), {
    invalidate: [trpc.webhooks.pathKey()],
    success: "Replay queued: the delivery is Pending again",
  });
  return (
    <Paper withBorder>
      <Group justify="space-between" p="md" pb="xs">
        <Title order={2} size="h4">
          Deliveries
        </Title>
        <Button
          size="xs"
          variant="default"
          loading={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          Refresh
        </Button>
      </Group>
      {replay.error && (
        <Alert color="red" role="alert" mx="md" mb="xs">
          {errorMessage(replay.error)}
        </Alert>
      )}
      <QueryState query={deliveries} label="deliveries" empty="No delivery to this endpoint yet.">
        {(list) => (
          <Table.ScrollContainer minWidth={920}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Attempts</Table.Th>
                  <Table.Th>Response</Table.Th>
                  <Table.Th>Last attempt</Table.Th>
                  <Table.Th>Next attempt</Table.Th>
                  <Table.Th>Last error</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((d) => (
                  <Fragment key={d.id}>
                    <Table.Tr>
                      <Table.Td>
                        <StatusBadge of="delivery" status={d.status} styles={unclipped} />
                      </Table.Td>
                      <Table.Td>{d.eventType}</Table.Td>
                      <Table.Td>{formatDate(d.createdAt)}</Table.Td>
                      <Table.Td>{d.attemptCount}</Table.Td>
                      <Table.Td>{d.responseStatusCode ?? "—"}</Table.Td>
                      <Table.Td>{formatDate(d.lastAttemptAt)}</Table.Td>
                      <Table.Td>{d.status === "Pending" ? formatDate(d.nextAttemptAt) : "—"}</Table.Td>
                      <Table.Td maw={260} style={{ overflowWrap: "anywhere" }}>
                        {d.lastError ?? "—"}
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="xs"
                            variant="default"
                            aria-expanded={open === d.id}
                            aria-controls={open === d.id ? `delivery-${d.id}` : undefined}
                            aria-label={`Details of the ${d.eventType} delivery of ${formatDate(d.createdAt)}`}
                            onClick={() => setOpen(open === d.id ? null : d.id)}
                          >
                            {open === d.id ? "Hide" : "Details"}
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            loading={replay.isPending && replay.variables?.deliveryId === d.id}
                            aria-label={`Replay the ${d.eventType} delivery of ${formatDate(d.createdAt)}`}
                            onClick={() => replay.mutate({ deliveryId: d.id })}
                          >
                            Replay
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                    {open === d.id && (
                      <Table.Tr id={`delivery-${d.id}`}>
                        <Table.Td colSpan={COLUMNS}>
                          <DeliveryDetails delivery={d} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </Paper>
  );
}

function DeliveryDetails({ delivery }: { delivery: WebhookDeliveryResponse }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} py="xs">
      <div>
        <Text fw={600} size="sm" mb={4}>
          Payload
        </Text>
        <Code block>{JSON.stringify(delivery.payload, null, 2)}</Code>
        <Text size="xs" c="dimmed" mt={4}>
          Delivery id <Code>{delivery.id}</Code> (the X-Service-Delivery header)
        </Text>
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          Response body
          {delivery.responseStatusCode !== null && ` (status ${delivery.responseStatusCode})`}
        </Text>
        {delivery.responseBody ? (
          <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
            {delivery.responseBody}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            {delivery.lastAttemptAt ? "Empty, or no response (see the last error)." : "Not attempted yet."}
          </Text>
        )}
      </div>
    </SimpleGrid>
  );
}
