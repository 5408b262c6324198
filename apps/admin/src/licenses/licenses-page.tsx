import { LICENSE_PAGE_SIZE, LicenseStatus } from "@licensing/contracts";
import { Paper, Select, SimpleGrid, TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { ButtonLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { DataTable } from "../lib/data-table.tsx";
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
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={LicenseStatus.options}
          value={search.status ?? null}
          onChange={(v) => setFilter({ status: v ?? undefined })}
        />
        <Select
          label="Company"
          placeholder="Any company"
          clearable
          searchable
          data={lookups.companies.map((c) => ({ value: c.id, label: c.name }))}
          value={search.companyId ?? null}
          onChange={(v) => setFilter({ companyId: v ?? undefined })}
        />
        <Select
          label="Template"
          placeholder="Any template"
          clearable
          searchable
          data={lookups.templates.map((t) => ({ value: t.id, label: t.name }))}
          value={search.templateId ?? null}
          onChange={(v) => setFilter({ templateId: v ?? undefined })}
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
