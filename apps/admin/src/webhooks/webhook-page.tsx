import { Alert, Button, Code, Paper, SimpleGrid, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useState, type ReactNode } from "react";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate, PageHeader, QueryState } from "../lib/ui.tsx";
import { DeliveriesTable } from "./deliveries-table.tsx";
import { DeleteWebhookDialog, WebhookFormDialog } from "./webhook-dialogs.tsx";
import { ActiveBadge, EventBadges, OperatorsOnly } from "./webhooks-page.tsx";

const route = getRouteApi("/app/webhooks/$webhookId");

/** One endpoint, its settings and its deliveries with their responses and a replay each. */
export function WebhookPage() {
  const can = usePermissions();
  if (!can.manageWebhooks) return <OperatorsOnly />;
  return <WebhookEndpoint />;
}

function WebhookEndpoint() {
  const { webhookId } = route.useParams();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const endpoint = useQuery(trpc.webhooks.get.queryOptions({ id: webhookId }));
  const [dialog, setDialog] = useState<"edit" | "delete" | null>(null);
  return (
    <QueryState query={endpoint} label="the webhook endpoint">
      {(e) => (
        <Stack>
          <PageHeader
            title={
              <>
                Webhook endpoint <ActiveBadge active={e.isActive} />
              </>
            }
          >
            <Button variant="default" onClick={() => setDialog("edit")}>
              Edit
            </Button>
            <Button variant="default" color="red" onClick={() => setDialog("delete")}>
              Delete
            </Button>
          </PageHeader>
          <Paper withBorder p="md">
            <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
              <Field label="URL">
                <Code style={{ overflowWrap: "anywhere" }}>{e.url}</Code>
              </Field>
              <Field label="Description">{e.description || "—"}</Field>
              <Field label="Created">{formatDate(e.createdAt)}</Field>
              <Field label="Last delivery">{e.lastDeliveryAt ? formatDate(e.lastDeliveryAt) : "never"}</Field>
              <Field label="Events">
                <EventBadges events={e.events} />
              </Field>
            </SimpleGrid>
          </Paper>
          {!e.isActive && (
            <Alert color="gray" title="Inactive">
              This endpoint gets no new delivery, and its pending ones (a replay too) wait until it is active
              again.
            </Alert>
          )}
          <DeliveriesTable endpointId={e.id} />
          {dialog === "edit" && <WebhookFormDialog endpoint={e} onClose={() => setDialog(null)} />}
          {dialog === "delete" && (
            <DeleteWebhookDialog
              endpoint={e}
              onClose={() => setDialog(null)}
              onDeleted={() => void navigate({ to: "/webhooks" })}
            />
          )}
        </Stack>
      )}
    </QueryState>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="div" size="sm">
        {children}
      </Text>
    </div>
  );
}
