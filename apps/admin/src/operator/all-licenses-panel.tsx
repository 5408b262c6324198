import { LICENSE_PAGE_SIZE, LicenseStatus } from "@licensing/contracts";
import { Paper, Select, SimpleGrid } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { licenseColumns } from "../licenses/license-cells.tsx";
import { useLookups } from "../licenses/lookups.ts";
import { DataTable } from "../lib/data-table.tsx";
import { usePaging } from "../lib/search.ts";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate } from "../lib/ui.tsx";
import type { OperatorSearch } from "./operator-search.ts";

const route = getRouteApi("/app/operator");
const PAGE_SIZE = LICENSE_PAGE_SIZE.default;
const TRIAL = [
  { value: "true", label: "Trial licenses only" },
  { value: "false", label: "No trial licenses" },
];

/** Every license of the platform, newest first; totals past the exact-count limit are approximate. */
export function AllLicensesPanel() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const lookups = useLookups();
  const paging = usePaging("licenses", PAGE_SIZE);
  const { status, templateId, companyId, trial } = search;
  const results = useQuery({
    ...trpc.operator.licenses.queryOptions({
      status,
      templateId,
      companyId,
      trial,
      page: paging.page,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const setFilter = (patch: Partial<OperatorSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch, page: undefined }) });

  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mb="md">
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={LicenseStatus.options}
          value={status ?? null}
          onChange={(v) => setFilter({ status: v ?? undefined })}
        />
        <Select
          label="Template"
          placeholder="Any template"
          clearable
          searchable
          data={lookups.templates.map((t) => ({ value: t.id, label: `${t.name} (${t.productCode})` }))}
          value={templateId ?? null}
          onChange={(v) => setFilter({ templateId: v ?? undefined })}
        />
        <Select
          label="Company"
          description="Its own licenses, not its children's"
          placeholder="Any company"
          clearable
          searchable
          data={lookups.companies.map((c) => ({ value: c.id, label: c.name }))}
          value={companyId ?? null}
          onChange={(v) => setFilter({ companyId: v ?? undefined })}
        />
        <Select
          label="Trial"
          placeholder="Trial or not"
          clearable
          data={TRIAL}
          value={trial === undefined ? null : String(trial)}
          onChange={(v) => setFilter({ trial: v === null ? undefined : v === "true" })}
        />
      </SimpleGrid>
      <Paper withBorder>
        <DataTable
          query={results}
          label="licenses"
          empty="No license matches these filters."
          paging={paging}
          minWidth={760}
          striped
          highlightOnHover
          aria-label="All licenses"
          columns={[
            licenseColumns.key,
            { header: "Company", cell: (l) => l.companyName },
            { header: "Product", cell: (l) => l.productCode },
            licenseColumns.status,
            { header: "Issued", cell: (l) => formatDate(l.issuedAt) },
            licenseColumns.expires,
          ]}
        />
      </Paper>
    </>
  );
}
