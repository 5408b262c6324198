import { Group, Paper, SimpleGrid, Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { AnchorLink, ButtonLink } from "../lib/links.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { Field, formatDate, PageHeader, QueryState } from "../lib/ui.tsx";
import { UsersPanel } from "./users-panel.tsx";

const route = getRouteApi("/app/companies/$companyId");

export function CompanyPage() {
  const { companyId } = route.useParams();
  const trpc = useTRPC();
  const can = usePermissions();
  const company = useQuery(trpc.companies.get.queryOptions({ id: companyId }));
  const children = useQuery(trpc.companies.children.queryOptions({ id: companyId }));
  const parent = useQuery({
    ...trpc.companies.get.queryOptions({ id: company.data?.parentId ?? "" }),
    enabled: !!company.data?.parentId,
  });

  return (
    <QueryState query={company} label="the company">
      {(c) => (
        <Stack>
          <PageHeader
            title={
              <>
                {c.name} {c.status === "Archived" && <StatusBadge of="company" status={c.status} />}
              </>
            }
          >
            <ButtonLink to="/licenses" search={{ companyId: c.id }} variant="default">
              Licenses
            </ButtonLink>
            {can.manageLicenses && c.status === "Active" && (
              <ButtonLink to="/licenses/new" search={{ companyId: c.id }}>
                Issue a license
              </ButtonLink>
            )}
          </PageHeader>
          <Paper withBorder p="md">
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Field label="Slug">{c.slug}</Field>
              <Field label="Parent">
                {c.parentId ? (
                  <AnchorLink to="/companies/$companyId" params={{ companyId: c.parentId }}>
                    {parent.data?.name ?? "…"}
                  </AnchorLink>
                ) : (
                  "None (root company)"
                )}
              </Field>
              <Field label="Created">{formatDate(c.createdAt)}</Field>
              <Field label="Contact">{c.contactEmail ?? "—"}</Field>
              <Field label="Child companies">
                <QueryState query={children} label="child companies" empty="None">
                  {(list) => (
                    <Group gap="xs">
                      {list.map((child) => (
                        <AnchorLink
                          key={child.id}
                          to="/companies/$companyId"
                          params={{ companyId: child.id }}
                        >
                          {child.name}
                        </AnchorLink>
                      ))}
                    </Group>
                  )}
                </QueryState>
              </Field>
            </SimpleGrid>
          </Paper>
          <UsersPanel company={c} />
        </Stack>
      )}
    </QueryState>
  );
}
