import type { ConcurrencyResponse, UsageResponse } from "@licensing/contracts";
import { Button, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { DataTable } from "../lib/data-table.tsx";
import { FilterSelect } from "../lib/filter-select.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { AnchorLink } from "../lib/links.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { useLookups } from "../licenses/lookups.ts";
import { PageHeader, QueryState } from "../lib/ui.tsx";
import { defaultRange, RANGE_ERRORS, type AnalyticsSearch } from "./analytics-search.ts";

const route = getRouteApi("/app/analytics");
const UsageChart = lazy(() => import("./usage-chart.tsx"));
const DistributionCharts = lazy(() => import("./distribution-charts.tsx"));
const ConcurrencyChart = lazy(() => import("./concurrency-chart.tsx"));

const total = (series: UsageResponse["heartbeats"]) => series.reduce((sum, day) => sum + day.count, 0);

/** "3 h 20 min" from seconds, to the minute. */
const hoursAndMinutes = (seconds: number) => {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  return h > 0 ? `${h} h ${minutes % 60} min` : `${minutes} min`;
};

/** The window's figures in one sentence, for the chart's readers and for screen readers. */
function concurrencySummary(c: ConcurrencyResponse) {
  const peak = Math.max(0, ...c.days.map((d) => d.peakLeases));
  const full = c.days.reduce((sum, d) => sum + d.fullSeconds, 0);
  const daysFull = c.days.filter((d) => d.fullSeconds > 0).length;
  return `${c.days[0]?.date} to ${c.days.at(-1)?.date}: highest peak ${peak} of ${c.maxSeats} seats; every seat leased for ${hoursAndMinutes(full)} in all, on ${daysFull} ${daysFull === 1 ? "day" : "days"}`;
}

/** Usage over a chosen range, and the distribution now; the server scopes both to what the user sees. */
export function AnalyticsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const defaults = defaultRange();
  const range = { from: search.from ?? defaults.from, to: search.to ?? defaults.to };
  const scope = { companyId: search.companyId };
  const companies = useQuery(trpc.companies.list.queryOptions());
  const lookups = useLookups();
  const concurrency = useQuery({
    ...trpc.analytics.concurrency.queryOptions({
      from: range.from,
      to: range.to,
      ...scope,
      templateId: search.templateId,
    }),
    placeholderData: keepPreviousData,
  });
  const usage = useQuery({
    ...trpc.analytics.usage.queryOptions({ from: range.from, to: range.to, ...scope }),
    placeholderData: keepPreviousData,
  });
  const distribution = useQuery({
    ...trpc.analytics.distribution.queryOptions(scope),
    placeholderData: keepPreviousData,
  });
  // The same answer (one request): its list of companies, for the table.
  const topCompanies = useQuery({
    ...trpc.analytics.distribution.queryOptions(scope),
    select: (d) => d.topCompaniesByActivations,
    placeholderData: keepPreviousData,
  });
  const rangeError = usage.error && RANGE_ERRORS.has(errorCode(usage.error) ?? "") ? usage.error : null;
  const setSearch = (patch: Partial<AnalyticsSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }) });

  return (
    <>
      <PageHeader title="Analytics" />
      <Paper withBorder p="md" mb="md">
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {/* Keyed by the URL: the back button puts the fields back to the range it shows. */}
          <RangeForm
            key={`${range.from}/${range.to}`}
            range={range}
            error={rangeError}
            onApply={(from, to) => setSearch({ from, to })}
          />
          <FilterSelect
            label="Company"
            description="That company and every company below it"
            placeholder="Every company you can see"
            searchable
            data={(companies.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={search.companyId}
            onChange={(v) => setSearch({ companyId: v })}
          />
        </SimpleGrid>
      </Paper>
      <Stack>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Usage per day
          </Title>
          {rangeError ? (
            <Text c="dimmed">Choose a valid range to see the usage.</Text>
          ) : (
            <QueryState query={usage} label="usage">
              {(u) => (
                <>
                  <Suspense fallback={<Loader aria-label="Loading the usage chart" />}>
                    <UsageChart usage={u} />
                  </Suspense>
                  <Text size="sm" mt="xs" aria-live="polite">
                    {u.activations[0]?.date} to {u.activations.at(-1)?.date}: {total(u.activations)}{" "}
                    activations, {total(u.heartbeats)} heartbeats, {total(u.licensesIssued)} licenses issued
                  </Text>
                </>
              )}
            </QueryState>
          )}
        </Paper>
        <Paper withBorder p="md" component="section" aria-labelledby="floating-seats-title">
          <Group justify="space-between" align="flex-start" mb="sm">
            <Title order={2} size="h4" id="floating-seats-title">
              Floating seats per day
            </Title>
            <FilterSelect
              label="Template"
              placeholder="Every template"
              searchable
              data={lookups.templateOptions}
              value={search.templateId}
              onChange={(v) => setSearch({ templateId: v })}
            />
          </Group>
          <Text size="sm" c="dimmed">
            Per UTC day, the most leases each floating license had live at once, summed over the licenses (one
            license: its own peak), against the seats they have together now; and how long a license had every
            seat leased, which is when a program was refused a seat. Today counts up to now.
          </Text>
          {rangeError ? (
            <Text c="dimmed">Choose a valid range to see the seats.</Text>
          ) : (
            <QueryState query={concurrency} label="the floating seats">
              {(c) => (
                <>
                  <Suspense fallback={<Loader aria-label="Loading the floating seats chart" />}>
                    <ConcurrencyChart concurrency={c} />
                  </Suspense>
                  <Text size="sm" mt="xs" aria-live="polite" aria-label="Floating seats summary">
                    {concurrencySummary(c)}
                  </Text>
                </>
              )}
            </QueryState>
          )}
        </Paper>
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Distribution now
          </Title>
          <QueryState query={distribution} label="the distribution">
            {(d) => (
              <Suspense fallback={<Loader aria-label="Loading the distribution charts" />}>
                <DistributionCharts distribution={d} />
              </Suspense>
            )}
          </QueryState>
        </Paper>
        <Paper withBorder>
          <Title order={2} size="h4" p="md" pb={0}>
            Top companies by live activations
          </Title>
          <DataTable
            query={topCompanies}
            label="the top companies"
            empty="No live activation yet."
            rowKey={(c) => c.companyId}
            minWidth={360}
            striped
            aria-label="Top companies by live activations"
            columns={[
              { header: "#", cell: (_, i) => i + 1 },
              {
                header: "Company",
                cell: (c) => (
                  <AnchorLink to="/companies/$companyId" params={{ companyId: c.companyId }}>
                    {c.companyName}
                  </AnchorLink>
                ),
              },
              { header: "Live activations", align: "right", cell: (c) => c.count },
            ]}
          />
        </Paper>
      </Stack>
    </>
  );
}

/** From and to (UTC days, each counted whole), applied together so no half-typed date is ever sent. */
function RangeForm({
  range,
  error,
  onApply,
}: {
  range: { from: string; to: string };
  error: unknown;
  onApply: (from: string, to: string) => void;
}) {
  const form = useForm({ initialValues: range });
  return (
    <form onSubmit={form.onSubmit((v) => onApply(v.from, v.to))} aria-label="Date range">
      <Group align="flex-start" wrap="wrap" gap="xs">
        <TextInput
          type="date"
          label="From"
          required
          {...form.getInputProps("from")}
          error={error ? errorMessage(error) : undefined}
        />
        <TextInput type="date" label="To" required {...form.getInputProps("to")} error={Boolean(error)} />
        <Button type="submit" variant="default" mt={25}>
          Show
        </Button>
      </Group>
    </form>
  );
}
