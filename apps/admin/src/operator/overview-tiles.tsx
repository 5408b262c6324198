import type { OperatorOverviewResponse } from "@licensing/contracts";
import { Paper, SimpleGrid, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTRPC } from "../lib/trpc.ts";
import { QueryState } from "../lib/ui.tsx";

const n = (value: number) => value.toLocaleString("en");

/** The platform's figures (decision 0029 says what each counts). */
export function OverviewTiles() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.operator.overview.queryOptions());
  return (
    <QueryState query={overview} label="the overview">
      {(o) => (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          {tiles(o).map((tile) => (
            <Tile key={tile.label} {...tile} />
          ))}
        </SimpleGrid>
      )}
    </QueryState>
  );
}

function tiles(o: OperatorOverviewResponse) {
  const { licenses: l, signingKeys: k, deliveryHealthLast24h: d } = o;
  return [
    { label: "Companies", value: o.totalCompanies, detail: `${n(o.rootCompanies)} root companies (tenants)` },
    {
      label: "Licenses",
      value: l.total,
      detail: `${n(l.active)} active · ${n(l.suspended)} suspended · ${n(l.revoked)} revoked · ${n(l.expired)} expired`,
    },
    { label: "Trial licenses", value: o.trialLicenses, detail: "Of any status" },
    { label: "Active activations", value: o.activeActivations, detail: "Machines holding a seat now" },
    {
      label: "Expiring in 30 days",
      value: o.licensesExpiringIn30Days,
      detail: "Active licenses",
      warn: o.licensesExpiringIn30Days > 0,
    },
    { label: "Templates", value: o.templates, detail: "Archived ones included" },
    {
      label: "Signing keys",
      value: k.total,
      detail: `${n(k.active)} active · ${n(k.inactive)} inactive · ${n(k.retired)} retired`,
    },
    { label: "Webhook endpoints", value: o.webhookEndpoints, detail: "Active endpoints" },
    {
      label: "Deliveries in the last 24 h",
      value: d.pending + d.failed + d.success,
      detail: `${n(d.success)} delivered · ${n(d.pending)} pending · ${n(d.failed)} failed`,
      warn: d.failed > 0,
    },
  ];
}

function Tile({
  label,
  value,
  detail,
  warn,
}: {
  label: string;
  value: number;
  detail: ReactNode;
  warn?: boolean;
}) {
  return (
    <Paper withBorder p="md" role="group" aria-label={label}>
      <Text size="sm" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text fz={28} fw={700} c={warn ? "orange.9" : undefined}>
        {n(value)}
      </Text>
      <Text size="sm">{detail}</Text>
    </Paper>
  );
}
