import type { WebhookEndpointResponse } from "@licensing/contracts";
import { Alert, Badge, Button, Group, Paper, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "../lib/data-table.tsx";
import { AnchorLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate, PageHeader } from "../lib/ui.tsx";
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
        <DataTable
          query={list}
          label="webhook endpoints"
          empty="No webhook endpoint yet."
          minWidth={760}
          striped
          columns={[
            {
              header: "URL",
              td: { style: { overflowWrap: "anywhere" } },
              cell: (e) => (
                <>
                  <AnchorLink to="/webhooks/$webhookId" params={{ webhookId: e.id }}>
                    {e.url}
                  </AnchorLink>
                  {e.description && (
                    <Text size="xs" c="dimmed">
                      {e.description}
                    </Text>
                  )}
                </>
              ),
            },
            { header: "Events", cell: (e) => <EventBadges events={e.events} /> },
            { header: "State", cell: (e) => <ActiveBadge active={e.isActive} /> },
            {
              header: "Last delivery",
              cell: (e) => (e.lastDeliveryAt ? formatDate(e.lastDeliveryAt) : "never"),
            },
            {
              header: "Actions",
              cell: (e) => (
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
              ),
            },
          ]}
        />
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
