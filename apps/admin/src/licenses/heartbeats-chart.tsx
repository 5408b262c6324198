import type { LicenseResponse } from "@licensing/contracts";
import { LineChart } from "@mantine/charts";
import { Paper, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate, QueryState } from "../lib/ui.tsx";

// Loaded on demand (React.lazy): the charting library is a third of the bundle.
/** Heartbeats per day over the latest records (up to 1,000). */
export default function HeartbeatsChart({ license }: { license: LicenseResponse }) {
  const trpc = useTRPC();
  const heartbeats = useQuery(trpc.activations.heartbeats.queryOptions({ id: license.id, limit: 1000 }));
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Heartbeats
      </Title>
      <QueryState query={heartbeats} label="heartbeats" empty="No heartbeat received yet.">
        {(list) => {
          const perDay = new Map<string, number>();
          for (const h of list) {
            const day = h.occurredAt.slice(0, 10);
            perDay.set(day, (perDay.get(day) ?? 0) + 1);
          }
          const data = [...perDay.entries()].sort().map(([day, count]) => ({ day, heartbeats: count }));
          return (
            <>
              <LineChart
                h={220}
                data={data}
                dataKey="day"
                series={[{ name: "heartbeats", color: "indigo.7" }]}
                curveType="linear"
              />
              <Text size="xs" c="dimmed" mt="xs">
                {list.length} heartbeat(s), latest {formatDate(list[0]?.occurredAt)}
              </Text>
            </>
          );
        }}
      </QueryState>
    </Paper>
  );
}
