import { Button, Code, Group, Paper, SimpleGrid, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable } from "../lib/data-table.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate, PageHeader } from "../lib/ui.tsx";

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
        <DataTable
          query={list}
          label="the audit log"
          empty="No audit record matches these filters."
          minWidth={720}
          striped
          columns={[
            { header: "When", cell: (r) => formatDate(r.occurredAt) },
            { header: "Actor", cell: (r) => r.actorEmail ?? "system" },
            { header: "Action", cell: (r) => r.action },
            {
              header: "Entity",
              cell: (r) => (
                <>
                  {r.entityType} <Code>{r.entityId?.slice(0, 8)}</Code>
                </>
              ),
            },
            { header: "Details", cell: (r) => <Code>{r.meta === "{}" ? "" : r.meta}</Code> },
          ]}
        />
        <Group p="xs" />
      </Paper>
    </>
  );
}
