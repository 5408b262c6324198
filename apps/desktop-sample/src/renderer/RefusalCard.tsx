import type { ReactNode } from "react";
import { Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import type { LicenseView } from "../shared/bridge.ts";
import { STATUS_COLORS, STATUS_LABELS } from "./StatusCard.tsx";

/** The frame of a screen for a refused activation: what happened, the status, and what the server said. */
export function RefusalCard({
  view,
  title,
  children,
}: {
  view: LicenseView;
  title: string;
  children: ReactNode;
}) {
  const error = view.connection.lastError;
  return (
    <Card withBorder padding="xl" maw={900} w="100%" mx="auto" aria-labelledby="refusal-title">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Title order={2} id="refusal-title">
            {title}
          </Title>
          <Badge size="xl" color={STATUS_COLORS[view.status]} data-testid="status-badge">
            {STATUS_LABELS[view.status]}
          </Badge>
        </Group>
        {children}
        <Text size="xs" c="dimmed" data-testid="status-reason">
          For support: <code>{view.reason}</code>
          {error && (
            <>
              {" "}
              · <code>{error.code}</code> {error.message}
            </>
          )}
        </Text>
      </Stack>
    </Card>
  );
}
