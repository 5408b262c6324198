import { LICENSE_PAGE_SIZE, LicenseStatus } from "@licensing/contracts";
import { Paper, SimpleGrid } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { licenseColumns } from "../licenses/license-cells.tsx";
import { useLookups } from "../licenses/lookups.ts";
import { DataTable } from "../lib/data-table.tsx";
import { FilterSelect } from "../lib/filter-select.tsx";
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
        <FilterSelect
          label="Status"
          placeholder="Any status"
          data={LicenseStatus.options}
          value={status}
          onChange={(v) => setFilter({ status: v })}
        />
        <FilterSelect
          label="Template"
          placeholder="Any template"
          searchable
          data={lookups.templates.map((t) => ({ value: t.id, label: `${t.name} (${t.productCode})` }))}
          value={templateId}
          onChange={(v) => setFilter({ templateId: v })}
        />
        <FilterSelect
          label="Company"
          description="Its own licenses, not its children's"
          placeholder="Any company"
          searchable
          data={lookups.companies.map((c) => ({ value: c.id, label: c.name }))}
          value={companyId}
          onChange={(v) => setFilter({ companyId: v })}
        />
        <FilterSelect
          label="Trial"
          placeholder="Trial or not"
          data={TRIAL}
          value={trial === undefined ? undefined : String(trial)}
          onChange={(v) => setFilter({ trial: v === undefined ? undefined : v === "true" })}
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
