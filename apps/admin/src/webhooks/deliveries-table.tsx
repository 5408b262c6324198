import type { WebhookDeliveryResponse } from "@licensing/contracts";
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  SimpleGrid,
  Switch,
  Text,
  Title,
} from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAction } from "../lib/action.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";
import { unclipped } from "./webhooks-page.tsx";

const LIMIT = 50;
// While a delivery is Pending the list follows it; the server's workers poll every 15 seconds.
const POLL_MS = 2_000;

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
      <DataTable
        query={deliveries}
        label="deliveries"
        empty="No delivery to this endpoint yet."
        minWidth={920}
        detail={(d) =>
          open === d.id ? { id: `delivery-${d.id}`, content: <DeliveryDetails delivery={d} /> } : null
        }
        columns={[
          {
            header: "Status",
            cell: (d) => <StatusBadge of="delivery" status={d.status} styles={unclipped} />,
          },
          { header: "Event", cell: (d) => d.eventType },
          { header: "Created", cell: (d) => formatDate(d.createdAt) },
          { header: "Attempts", cell: (d) => d.attemptCount },
          { header: "Response", cell: (d) => d.responseStatusCode ?? "—" },
          { header: "Last attempt", cell: (d) => formatDate(d.lastAttemptAt) },
          {
            header: "Next attempt",
            cell: (d) => (d.status === "Pending" ? formatDate(d.nextAttemptAt) : "—"),
          },
          {
            header: "Last error",
            td: { maw: 260, style: { overflowWrap: "anywhere" } },
            cell: (d) => d.lastError ?? "—",
          },
          {
            header: "Actions",
            cell: (d) => (
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
            ),
          },
        ]}
      />
    </Paper>
  );
}

const wrapped = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;

/** The body as a receiver got it, or indented for reading; copying always gives the exact text. */
function indented(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

function DeliveryDetails({ delivery }: { delivery: WebhookDeliveryResponse }) {
  const [readable, setReadable] = useState(false);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} py="xs">
      <div>
        <Group justify="space-between" mb={4} gap="xs">
          <Text fw={600} size="sm">
            Payload
          </Text>
          <Group gap="xs">
            <Switch
              size="xs"
              label="Indent for reading"
              checked={readable}
              onChange={(event) => setReadable(event.currentTarget.checked)}
            />
            <CopyButton value={delivery.payload}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy}>
                  {copied ? "Copied" : "Copy the payload"}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Group>
        <Code block style={wrapped}>
          {readable ? indented(delivery.payload) : delivery.payload}
        </Code>
        <Text size="xs" c="dimmed" mt={4}>
          {readable
            ? "Indented here for reading; the body sent, and what Copy gives, is the exact text without it."
            : "The exact body sent: both signatures are computed over this text."}{" "}
          Delivery id <Code>{delivery.id}</Code> (the X-Service-Delivery header)
        </Text>
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          Response body
          {delivery.responseStatusCode !== null && ` (status ${delivery.responseStatusCode})`}
        </Text>
        {delivery.responseBody ? (
          <Code block style={wrapped}>
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
