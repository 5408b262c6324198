import { LICENSE_PAGE_SIZE } from "@licensing/contracts";
import { Paper, Text, TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { AnchorLink } from "../lib/links.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { usePaging } from "../lib/search.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";

const route = getRouteApi("/app/operator");
const PAGE_SIZE = LICENSE_PAGE_SIZE.default;

/** Root companies with the size of their subtree; the search matches part of the name or the slug. */
export function TenantsPanel() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const paging = usePaging("tenants", PAGE_SIZE);
  const tenants = useQuery({
    ...trpc.operator.tenants.queryOptions({ search: search.search, page: paging.page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const setText = useDebouncedCallback(
    (value: string) =>
      void navigate({
        search: (prev) => ({ ...prev, search: value || undefined, page: undefined }),
        replace: true,
      }),
    300,
  );

  return (
    <>
      <TextInput
        label="Search tenants"
        placeholder="Part of the name or slug"
        defaultValue={search.search ?? ""}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={420}
        mb="md"
      />
      <Paper withBorder>
        <DataTable
          query={tenants}
          label="tenants"
          empty="No root company matches."
          paging={paging}
          minWidth={720}
          striped
          highlightOnHover
          aria-label="Tenants"
          columns={[
            {
              header: "Tenant",
              cell: (t) => (
                <>
                  <AnchorLink to="/companies/$companyId" params={{ companyId: t.id }}>
                    {t.name}
                  </AnchorLink>
                  {t.contactEmail && (
                    <Text size="xs" c="dimmed">
                      {t.contactEmail}
                    </Text>
                  )}
                </>
              ),
            },
            { header: "Slug", cell: (t) => t.slug },
            { header: "Status", cell: (t) => <StatusBadge of="company" status={t.status} /> },
            {
              header: "Companies below",
              align: "right",
              cell: (t) => t.descendantCount.toLocaleString("en"),
            },
            { header: "Licenses", align: "right", cell: (t) => t.licenseCount.toLocaleString("en") },
            { header: "Created", cell: (t) => formatDate(t.createdAt) },
          ]}
        />
      </Paper>
    </>
  );
}
