import { Button, Code, Group, Paper, Text, Title } from "@mantine/core";
import { DataTable } from "../../lib/data-table.tsx";
import { StatusBadge } from "../../lib/status.tsx";
import { LicenseKeyLink } from "../license-cells.tsx";
import { outcomesCsv, type BulkOutcome } from "./bulk-rows.ts";

/** The last step: what became of each row, as a table and as a CSV file to download. */
export function ResultsStep({ outcomes, onAgain }: { outcomes: BulkOutcome[]; onAgain: () => void }) {
  const count = (status: BulkOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  const issued = count("issued");
  const download = () => {
    const url = URL.createObjectURL(new Blob([outcomesCsv(outcomes)], { type: "text/csv" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = "bulk-issue-results.csv";
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Paper withBorder mt="md" maw={960}>
      <Group justify="space-between" p="md" pb={0}>
        <Title order={2} size="h4">
          Results
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={download}>
            Download the results (CSV)
          </Button>
          <Button variant="default" onClick={onAgain}>
            Start another batch
          </Button>
        </Group>
      </Group>
      <Text px="md" pt="xs" role="status">
        {issued} of {outcomes.length} issued; {count("failed")} failed, {count("skipped")} skipped
        {count("not sent") > 0 ? `, ${count("not sent")} not sent` : ""}.
      </Text>
      <DataTable
        rows={outcomes}
        rowKey={(o) => o.row.row}
        empty="No row."
        minWidth={640}
        aria-label="Results per row"
        columns={[
          { header: "Row", cell: (o) => o.row.row },
          { header: "Company", cell: (o) => o.row.companyName ?? o.row.company },
          { header: "Result", width: 120, cell: (o) => <StatusBadge of="bulkRow" status={o.status} /> },
          {
            header: "License key or error",
            cell: (o) =>
              o.result?.licenseId && o.result.licenseKey ? (
                <LicenseKeyLink id={o.result.licenseId} licenseKey={o.result.licenseKey} />
              ) : (
                <Text size="sm">
                  {o.errorMessage} {o.errorCode && <Code>{o.errorCode}</Code>}
                </Text>
              ),
          },
        ]}
      />
    </Paper>
  );
}
