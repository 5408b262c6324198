import type { ConcurrencyResponse } from "@licensing/contracts";
import { BarChart } from "@mantine/charts";
import { Text } from "@mantine/core";

// Loaded on demand (React.lazy), like the usage chart.
/**
 * Floating seats per UTC day: the peak of live leases (summed over the licenses in scope) against the
 * seats they have together, and the minutes a license had every seat leased.
 */
export default function ConcurrencyChart({ concurrency }: { concurrency: ConcurrencyResponse }) {
  const data = concurrency.days.map((day) => ({
    date: day.date,
    "peak leases": day.peakLeases,
    "minutes full": Math.round(day.fullSeconds / 60),
  }));
  const top = Math.max(concurrency.maxSeats, ...concurrency.days.map((d) => d.peakLeases), 1);
  return (
    <>
      <Text size="sm" fw={600} mt="xs">
        Peak leases per day
      </Text>
      <BarChart
        h={220}
        data={data}
        dataKey="date"
        yAxisProps={{ domain: [0, Math.ceil(top * 1.1)], allowDecimals: false }}
        series={[{ name: "peak leases", color: "indigo.7" }]}
        referenceLines={
          concurrency.maxSeats > 0
            ? [
                {
                  y: concurrency.maxSeats,
                  label: `${concurrency.maxSeats} seats`,
                  color: "red.8",
                  labelPosition: "insideTopLeft",
                },
              ]
            : []
        }
      />
      <Text size="sm" fw={600} mt="md">
        Minutes with every seat leased
      </Text>
      <BarChart
        h={160}
        data={data}
        dataKey="date"
        yAxisProps={{ allowDecimals: false }}
        series={[{ name: "minutes full", color: "orange.8" }]}
      />
    </>
  );
}
