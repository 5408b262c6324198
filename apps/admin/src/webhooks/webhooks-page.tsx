import type { WebhookEndpointResponse } from "@licensing/contracts";
import { Alert, Badge, Button, Group, Paper, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AnchorLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate, PageHeader, QueryState } from "../lib/ui.tsx";
import { DeleteWebhookDialog, WebhookFormDialog } from "./webhook-dialogs.tsx";

/** Webhook endpoints (spec §4 Webhooks, §6): operators only, which the server enforces too. */
export function WebhooksPage() {
  const can = usePermissions();
  if (!can.manageWebhooks) return <OperatorsOnly />;
  return <WebhookEndpoints />;
}

export function OperatorsOnly() {
  return (
    <>
      <PageHeader title="Webhooks" />
      <Alert color="indigo" title="Operators only" role="alert">
        Webhook endpoints are managed by the service&apos;s operators. Ask one if your systems need to be
        notified of license events.
      </Alert>
    </>
  );
}

type Dialog = { kind: "create" } | { kind: "edit" | "delete"; endpoint: WebhookEndpointResponse };

function WebhookEndpoints() {
  const trpc = useTRPC();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  return (
    <>
      <PageHeader title="Webhooks">
        <Button onClick={() => setDialog({ kind: "create" })}>New endpoint</Button>
      </PageHeader>
      <Paper withBorder>
        <QueryState query={list} label="webhook endpoints" empty="No webhook endpoint yet.">
          {(endpoints) => (
            <Table.ScrollContainer minWidth={760}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>URL</Table.Th>
                    <Table.Th>Events</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th>Last delivery</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {endpoints.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td style={{ overflowWrap: "anywhere" }}>
                        <AnchorLink to="/webhooks/$webhookId" params={{ webhookId: e.id }}>
                          {e.url}
                        </AnchorLink>
                        {e.description && (
                          <Text size="xs" c="dimmed">
                            {e.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <EventBadges events={e.events} />
                      </Table.Td>
                      <Table.Td>
                        <ActiveBadge active={e.isActive} />
                      </Table.Td>
                      <Table.Td>{e.lastDeliveryAt ? formatDate(e.lastDeliveryAt) : "never"}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={`Edit ${e.url}`}
                            onClick={() => setDialog({ kind: "edit", endpoint: e })}
                          >
                            Edit
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            color="red"
                            aria-label={`Delete ${e.url}`}
                            onClick={() => setDialog({ kind: "delete", endpoint: e })}
                          >
                            Delete
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Paper>
      {dialog?.kind === "create" && <WebhookFormDialog onClose={() => setDialog(null)} />}
      {dialog?.kind === "edit" && (
        <WebhookFormDialog endpoint={dialog.endpoint} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === "delete" && (
        <DeleteWebhookDialog endpoint={dialog.endpoint} onClose={() => setDialog(null)} />
      )}
    </>
  );
}

export function EventBadges({ events }: { events: string[] }) {
  return (
    <Group gap={4}>
      {events.map((event) => (
        <Badge key={event} variant="light" tt="none">
          {event}
        </Badge>
      ))}
    </Group>
  );
}

/** A badge's label whole even in a squeezed table column (Mantine clips it with an ellipsis). */
export const unclipped = { label: { overflow: "visible" } } as const;

export function ActiveBadge({ active }: { active: boolean }) {
  return <StatusBadge of="webhook" status={active ? "active" : "inactive"} styles={unclipped} />;
}
