import { Button, Code, Group, Paper, SimpleGrid, Table, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate, PageHeader, QueryState } from "../lib/ui.tsx";

const LIMIT = 100;

/** The audit log with its filters; the export is a file download of the REST endpoint (same session). */
export function AuditPage() {
  const trpc = useTRPC();
  const [filters, setFilters] = useState({ action: "", actorEmail: "", entityType: "", entityId: "" });
  const [debounced] = useDebouncedValue(filters, 300);
  const query = Object.fromEntries(Object.entries(debounced).filter(([, v]) => v.trim() !== "")) as Partial<
    typeof filters
  >;
  const list = useQuery(trpc.audit.list.queryOptions({ ...query, limit: LIMIT, offset: 0 }));
  const exportUrl = (format: "csv" | "json") =>
    `/api/v1/panel/audit/export?${new URLSearchParams({ ...query, format })}`;
  const field = (name: keyof typeof filters, label: string) => (
    <TextInput
      label={label}
      value={filters[name]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setFilters((f) => ({ ...f, [name]: value }));
      }}
    />
  );
  return (
    <>
      <PageHeader title="Audit log">
        <Button component="a" href={exportUrl("csv")} download variant="default">
          Export CSV
        </Button>
        <Button component="a" href={exportUrl("json")} download variant="default">
          Export JSON
        </Button>
      </PageHeader>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mb="md">
        {field("action", "Action")}
        {field("actorEmail", "Actor email")}
        {field("entityType", "Entity type")}
        {field("entityId", "Entity id")}
      </SimpleGrid>
      <Paper withBorder>
        <QueryState query={list} label="the audit log" empty="No audit record matches these filters.">
          {(records) => (
            <Table.ScrollContainer minWidth={720}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Actor</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Entity</Table.Th>
                    <Table.Th>Details</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {records.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>{formatDate(r.occurredAt)}</Table.Td>
                      <Table.Td>{r.actorEmail ?? "system"}</Table.Td>
                      <Table.Td>{r.action}</Table.Td>
                      <Table.Td>
                        {r.entityType} <Code>{r.entityId?.slice(0, 8)}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Code>{r.meta === "{}" ? "" : r.meta}</Code>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
        <Group p="xs" />
      </Paper>
    </>
  );
}
