import type { UsageResponse } from "@licensing/contracts";
import { LineChart } from "@mantine/charts";

// Loaded on demand (React.lazy): the charting library is a third of the bundle.
/** Activations, heartbeats and licenses issued per UTC day of the window. */
export default function UsageChart({ usage }: { usage: UsageResponse }) {
  const data = usage.activations.map((day, i) => ({
    date: day.date,
    activations: day.count,
    heartbeats: usage.heartbeats[i]?.count ?? 0,
    "licenses issued": usage.licensesIssued[i]?.count ?? 0,
  }));
  return (
    <LineChart
      h={260}
      data={data}
      dataKey="date"
      withLegend
      legendProps={{ verticalAlign: "bottom" }}
      curveType="linear"
      // Dots for a few days; over a month they only crowd the lines.
      withDots={data.length <= 14}
      series={[
        { name: "activations", color: "indigo.7" },
        { name: "heartbeats", color: "teal.8" },
        { name: "licenses issued", color: "orange.8" },
      ]}
    />
  );
}
