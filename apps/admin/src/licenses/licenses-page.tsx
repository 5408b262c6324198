import { LICENSE_PAGE_SIZE, LicenseStatus } from "@licensing/contracts";
import { Paper, SimpleGrid, TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { ButtonLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { DataTable } from "../lib/data-table.tsx";
import { FilterSelect } from "../lib/filter-select.tsx";
import { usePaging } from "../lib/search.ts";
import { useTRPC } from "../lib/trpc.ts";
import { PageHeader } from "../lib/ui.tsx";
import { licenseColumns } from "./license-cells.tsx";
import type { LicenseSearch } from "./license-search.ts";
import { useLookups } from "./lookups.ts";

const route = getRouteApi("/app/licenses");
const PAGE_SIZE = LICENSE_PAGE_SIZE.default;

export function LicensesPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const can = usePermissions();
  const lookups = useLookups();
  const paging = usePaging("licenses", PAGE_SIZE);
  const results = useQuery({
    ...trpc.licenses.search.queryOptions({ ...search, page: paging.page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const setFilter = (patch: Partial<LicenseSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch, page: undefined }), replace: true });
  const setText = useDebouncedCallback((value: string) => setFilter({ search: value || undefined }), 300);

  return (
    <>
      <PageHeader title="Licenses">
        {can.manageLicenses && (
          <>
            <ButtonLink to="/licenses/bulk" variant="default">
              Bulk issue from CSV
            </ButtonLink>
            <ButtonLink to="/licenses/new" search={{ companyId: search.companyId }}>
              Issue a license
            </ButtonLink>
          </>
        )}
      </PageHeader>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mb="md">
        <TextInput
          label="Search"
          placeholder="License key or company name"
          defaultValue={search.search ?? ""}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <FilterSelect
          label="Status"
          placeholder="Any status"
          data={LicenseStatus.options}
          value={search.status}
          onChange={(v) => setFilter({ status: v })}
        />
        <FilterSelect
          label="Company"
          placeholder="Any company"
          searchable
          data={lookups.companies.map((c) => ({ value: c.id, label: c.name }))}
          value={search.companyId}
          onChange={(v) => setFilter({ companyId: v })}
        />
        <FilterSelect
          label="Template"
          placeholder="Any template"
          searchable
          data={lookups.templates.map((t) => ({ value: t.id, label: t.name }))}
          value={search.templateId}
          onChange={(v) => setFilter({ templateId: v })}
        />
      </SimpleGrid>
      <Paper withBorder>
        <DataTable
          query={results}
          label="licenses"
          empty="No license matches these filters."
          paging={paging}
          minWidth={720}
          striped
          highlightOnHover
          columns={[
            licenseColumns.key,
            { header: "Company", cell: (l) => lookups.companyName(l.companyId) },
            { header: "Template", cell: (l) => lookups.templateName(l.templateId) },
            licenseColumns.status,
            licenseColumns.expires,
          ]}
        />
      </Paper>
    </>
  );
}
