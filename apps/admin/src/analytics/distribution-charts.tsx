import type { DistributionResponse } from "@licensing/contracts";
import { BarChart } from "@mantine/charts";
import { SimpleGrid, Stack, Text, Title } from "@mantine/core";

type TemplateCounts = DistributionResponse["licensesByTemplate"];

// Loaded on demand with the usage chart (React.lazy): the charting library is a third of the bundle.
/** Licenses (any status) and live activations per template, as bars with their figures in words. */
export default function DistributionCharts({ distribution }: { distribution: DistributionResponse }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <TemplateBars title="Licenses by template" unit="licenses" counts={distribution.licensesByTemplate} />
      <TemplateBars
        title="Live activations by template"
        unit="activations"
        counts={distribution.activationsByTemplate}
      />
    </SimpleGrid>
  );
}

function TemplateBars({ title, unit, counts }: { title: string; unit: string; counts: TemplateCounts }) {
  const data = counts.map((t) => ({ template: t.templateName, [unit]: t.count }));
  return (
    <Stack gap="xs" role="group" aria-label={title}>
      <Title order={3} size="h5">
        {title}
      </Title>
      {counts.length === 0 ? (
        <Text c="dimmed" size="sm">
          None yet.
        </Text>
      ) : (
        <>
          <BarChart
            h={Math.max(120, 40 * counts.length + 40)}
            data={data}
            dataKey="template"
            orientation="vertical"
            yAxisProps={{ width: 110 }}
            series={[{ name: unit, color: "indigo.7" }]}
          />
          <Text size="sm">
            {counts.map((t) => `${t.templateName} (${t.productCode}): ${t.count}`).join(" · ")}
          </Text>
        </>
      )}
    </Stack>
  );
}
