import { Code, Paper, Text, Title } from "@mantine/core";
import { DataTable } from "../../lib/data-table.tsx";
import { StatusBadge } from "../../lib/status.tsx";
import type { BulkRow } from "./bulk-rows.ts";

/** Step 3: each row as read, and whether it will be sent or why not. */
export function PreviewStep({ rows, ready }: { rows: BulkRow[]; ready: number }) {
  const flagged = rows.length - ready;
  return (
    <Paper withBorder>
      <Title order={2} size="h4" p="md" pb={0}>
        Preview
      </Title>
      <Text size="sm" px="md" pt="xs" aria-live="polite">
        {rows.length} row(s): {ready} ready
        {flagged > 0 ? `, ${flagged} will not be sent (see below)` : ""}
      </Text>
      <DataTable
        rows={rows}
        rowKey={(r) => r.row}
        empty="The CSV has a header but no row."
        minWidth={640}
        aria-label="Preview of the rows"
        columns={[
          { header: "Row", cell: (r) => r.row },
          { header: "Company", cell: (r) => r.companyName ?? r.company },
          { header: "Configuration", cell: (r) => (r.config ? <Code>{r.config}</Code> : "the batch's") },
          {
            header: "Check",
            width: "40%",
            cell: (r) =>
              r.problem ? (
                <Text c="red.8" size="sm">
                  {r.problem}
                </Text>
              ) : (
                <StatusBadge of="bulkRow" status="ready" />
              ),
          },
        ]}
      />
    </Paper>
  );
}
