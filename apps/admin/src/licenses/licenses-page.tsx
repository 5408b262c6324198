import { LICENSE_PAGE_SIZE, LicenseStatus } from "@licensing/contracts";
import { Paper, Select, SimpleGrid, Table, TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { ButtonLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { Pager } from "../lib/pager.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate, PageHeader, QueryState } from "../lib/ui.tsx";
import { LicenseKeyLink, LicenseStatusBadges } from "./license-cells.tsx";
import { useLookups } from "./lookups.ts";

export interface LicenseSearch {
  search?: string | undefined;
  status?: string | undefined;
  companyId?: string | undefined;
  templateId?: string | undefined;
  page?: number | undefined;
}

const text = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);

export function licenseSearch(search: Record<string, unknown>): LicenseSearch {
  const page = Number(search.page);
  return {
    search: text(search.search),
    status: text(search.status),
    companyId: text(search.companyId),
    templateId: text(search.templateId),
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}

const route = getRouteApi("/app/licenses");
const PAGE_SIZE = LICENSE_PAGE_SIZE.default;

export function LicensesPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const can = usePermissions();
  const lookups = useLookups();
  const page = search.page ?? 1;
  const results = useQuery({
    ...trpc.licenses.search.queryOptions({ ...search, page, pageSize: PAGE_SIZE }),
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
        <QueryState
          query={results}
          label="licenses"
          empty="No license matches these filters."
          isEmpty={(p) => p.items.length === 0}
        >
          {(result) => (
            <>
              <Table.ScrollContainer minWidth={720}>
                <Table striped highlightOnHover>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>License key</Table.Th>
                      <Table.Th>Company</Table.Th>
                      <Table.Th>Template</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Expires</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.items.map((l) => (
                      <Table.Tr key={l.id}>
                        <Table.Td>
                          <LicenseKeyLink id={l.id} licenseKey={l.licenseKey} />
                        </Table.Td>
                        <Table.Td>{lookups.companyName(l.companyId)}</Table.Td>
                        <Table.Td>{lookups.templateName(l.templateId)}</Table.Td>
                        <Table.Td>
                          <LicenseStatusBadges status={l.status} isTrial={l.isTrial} />
                        </Table.Td>
                        <Table.Td>{formatDate(l.expiresAt)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Pager
                total={result.total}
                noun="licenses"
                page={page}
                pageSize={PAGE_SIZE}
                onPage={(p) =>
                  void navigate({ search: (prev) => ({ ...prev, page: p > 1 ? p : undefined }) })
                }
              />
            </>
          )}
        </QueryState>
      </Paper>
    </>
  );
}
