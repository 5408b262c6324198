import { Badge, Card, Group, Progress, Stack, Text, Title } from "@mantine/core";
import type { ClientStatus, LicenseView } from "../shared/bridge.ts";
import { formatCountdown, formatDate } from "./format.ts";

export const STATUS_COLORS: Record<ClientStatus, string> = {
  Active: "teal",
  GracePeriod: "yellow",
  Expired: "red",
  Invalid: "gray",
  Revoked: "red",
};

export const STATUS_LABELS: Record<ClientStatus, string> = {
  Active: "Active",
  GracePeriod: "Grace period",
  Expired: "Expired",
  Invalid: "Invalid",
  Revoked: "Revoked",
};

const GRACE_MS = 24 * 3_600_000;

/** The status, its reason, and what happens next (the grace countdown while it runs). */
export function StatusCard({ view, now }: { view: LicenseView; now: number }) {
  const grace = view.status === "GracePeriod" && view.marker ? view.marker.graceEndsAt - now : null;
  return (
    <Card withBorder padding="lg" aria-labelledby="status-title">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} id="status-title">
            License status
          </Title>
          <Badge size="xl" color={STATUS_COLORS[view.status]} data-testid="status-badge">
            {STATUS_LABELS[view.status]}
          </Badge>
        </Group>
        <Text data-testid="status-reason">
          <code>{view.reason}</code> · {view.message}
        </Text>
        {grace !== null && (
          <Stack gap={4} data-testid="grace-countdown">
            <Text fw={600} c="yellow.9">
              Grace period ends in {formatCountdown(grace)}
            </Text>
            <Progress
              value={Math.max(0, Math.min(100, (grace / GRACE_MS) * 100))}
              color="yellow"
              aria-label="Grace period left"
            />
            <Text size="sm" c="dimmed">
              Connect to the internet so the app can check in with the licensing server.
            </Text>
          </Stack>
        )}
        {view.nextTransitionAt !== null && view.nextStatus && grace === null && (
          <Text size="sm" c="dimmed" data-testid="next-transition">
            Becomes {STATUS_LABELS[view.nextStatus]} on {formatDate(view.nextTransitionAt)} unless the server
            sends a fresh marker.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
