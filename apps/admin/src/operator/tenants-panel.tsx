import { LICENSE_PAGE_SIZE } from "@licensing/contracts";
import { Paper, Table, Text, TextInput } from "@mantine/core";
import { useDebouncedCallback } from "@mantine/hooks";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { AnchorLink } from "../lib/links.tsx";
import { Pager } from "../lib/pager.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate, QueryState } from "../lib/ui.tsx";

const route = getRouteApi("/app/operator");
const PAGE_SIZE = LICENSE_PAGE_SIZE.default;

/** Root companies with the size of their subtree; the search matches part of the name or the slug. */
export function TenantsPanel() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const trpc = useTRPC();
  const page = search.page ?? 1;
  const tenants = useQuery({
    ...trpc.operator.tenants.queryOptions({ search: search.search, page, pageSize: PAGE_SIZE }),
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
        <QueryState
          query={tenants}
          label="tenants"
          empty="No root company matches."
          isEmpty={(p) => p.items.length === 0}
        >
          {(result) => (
            <>
              <Table.ScrollContainer minWidth={720}>
                <Table striped highlightOnHover aria-label="Tenants">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Tenant</Table.Th>
                      <Table.Th>Slug</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th ta="right">Companies below</Table.Th>
                      <Table.Th ta="right">Licenses</Table.Th>
                      <Table.Th>Created</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.items.map((t) => (
                      <Table.Tr key={t.id}>
                        <Table.Td>
                          <AnchorLink to="/companies/$companyId" params={{ companyId: t.id }}>
                            {t.name}
                          </AnchorLink>
                          {t.contactEmail && (
                            <Text size="xs" c="dimmed">
                              {t.contactEmail}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>{t.slug}</Table.Td>
                        <Table.Td>
                          <StatusBadge of="company" status={t.status} />
                        </Table.Td>
                        <Table.Td ta="right">{t.descendantCount.toLocaleString("en")}</Table.Td>
                        <Table.Td ta="right">{t.licenseCount.toLocaleString("en")}</Table.Td>
                        <Table.Td>{formatDate(t.createdAt)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Pager
                total={result.total}
                noun="tenants"
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
