import { BULK_MAX_ITEMS } from "@licensing/contracts";
import {
  Alert,
  Button,
  Code,
  FileInput,
  Group,
  List,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from "@mantine/core";
import { useState } from "react";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { usePermissions } from "../lib/me.ts";
import { StatusBadge } from "../lib/status.tsx";
import { PageHeader } from "../lib/ui.tsx";
import { configProblem, outcomesCsv, readBulkCsv, type BulkOutcome, type BulkRow } from "./bulk-rows.ts";
import { defaultTerms, LicenseTermsFields, termsRequest } from "./license-terms.tsx";
import { LicenseKeyLink } from "./license-cells.tsx";
import { useLookups } from "./lookups.ts";
import { useBulkIssue } from "./use-bulk-issue.ts";

const EXAMPLE = `company,config
acme-europe,
acme-group,"{""edition"": ""pro"", ""limits"": {""maxSeats"": 5}}"`;

/** Many licenses of one template from a CSV: preview, send in chunks with progress, results per row. */
export function BulkIssuePage() {
  const can = usePermissions();
  const lookups = useLookups();
  const bulk = useBulkIssue();
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [terms, setTerms] = useState(defaultTerms("none"));
  const [sharedConfig, setSharedConfig] = useState("");
  const [csv, setCsv] = useState("");
  const [file, setFile] = useState<File | null>(null);

  if (!can.manageLicenses)
    return (
      <>
        <PageHeader title="Bulk issue licenses" />
        <Alert color="yellow">Only an Admin or Owner can issue licenses.</Alert>
      </>
    );

  const read = csv.trim() ? readBulkCsv(csv, lookups.companies) : null;
  const rows = read?.rows ?? [];
  const ready = rows.filter((r) => !r.problem).length;
  const sharedProblem = configProblem(sharedConfig.trim());
  const sending = bulk.progress !== null;
  const failure = bulk.result?.error;
  const fieldError = (code: string) => (errorCode(failure) === code ? errorMessage(failure) : undefined);
  const generalError =
    failure &&
    !["license.invalid_expiry", "license.invalid_config", "license.invalid_binding"].includes(
      errorCode(failure) ?? "",
    )
      ? errorMessage(failure)
      : null;

  const loadFile = async (chosen: File | null) => {
    setFile(chosen);
    bulk.reset();
    if (chosen) setCsv(await chosen.text());
  };
  const send = () => {
    if (!templateId || ready === 0 || sharedProblem) return;
    void bulk.send(
      {
        templateId,
        config: sharedConfig.trim() || null,
        ...termsRequest(terms),
      },
      rows,
    );
  };

  return (
    <>
      <PageHeader title="Bulk issue licenses" />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <Stack maw={960}>
          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="sm">
              Terms for every license
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label="Template"
                required
                searchable
                data={lookups.templateOptions}
                value={templateId}
                onChange={setTemplateId}
              />
              <LicenseTermsFields
                terms={terms}
                onChange={setTerms}
                template={lookups.templates.find((t) => t.id === templateId)}
                bindings={["none", "firstActivation"]}
                fieldError={fieldError}
                trialLabel="Trial licenses"
              />
              <Textarea
                label="Configuration for rows without their own (JSON)"
                description="Empty: the template version's defaults. A row's config replaces it, and the defaults fill in the keys it leaves out"
                autosize
                minRows={2}
                value={sharedConfig}
                onChange={(e) => setSharedConfig(e.currentTarget.value)}
                error={sharedProblem ?? fieldError("license.invalid_config")}
                styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
              />
            </SimpleGrid>
          </Paper>

          <Paper withBorder p="md">
            <Title order={2} size="h4" mb="xs">
              The CSV
            </Title>
            <Text size="sm">The first row names the columns; then one row per license:</Text>
            <List size="sm" mb="xs">
              <List.Item>
                <Code>company</Code>: the company&apos;s id or slug, among the companies you can see
                (required).
              </List.Item>
              <List.Item>
                <Code>config</Code>: the license&apos;s configuration as a JSON object, in double quotes with
                its quotes doubled (optional; empty means the configuration above).
              </List.Item>
              <List.Item>Other columns are ignored; row numbers count the header as row 1.</List.Item>
            </List>
            <Code block mb="sm" style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {EXAMPLE}
            </Code>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <FileInput
                label="CSV file"
                description="Its text is read into the box beside, where it can be edited"
                accept=".csv,text/csv"
                clearable
                clearButtonProps={{ "aria-label": "Remove the file" }}
                value={file}
                onChange={(f) => void loadFile(f)}
              />
              <Textarea
                label="Or paste the CSV"
                autosize
                minRows={3}
                maxRows={12}
                description="The first row names the columns"
                spellCheck={false}
                value={csv}
                onChange={(e) => {
                  setCsv(e.currentTarget.value);
                  bulk.reset();
                }}
                styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
              />
            </SimpleGrid>
          </Paper>

          {read?.error && (
            <Alert color="red" role="alert">
              {read.error}
            </Alert>
          )}
          {read?.rows && !bulk.result && <Preview rows={read.rows} ready={ready} />}

          {bulk.progress && (
            <div>
              <Text size="sm" id="bulk-progress-label" aria-live="polite">
                Issued {bulk.progress.sent} of {bulk.progress.total} (sent {BULK_MAX_ITEMS} at a time)
              </Text>
              <Progress.Root size="lg">
                <Progress.Section
                  aria-labelledby="bulk-progress-label"
                  value={
                    bulk.progress.total ? Math.floor((100 * bulk.progress.sent) / bulk.progress.total) : 0
                  }
                  animated
                />
              </Progress.Root>
            </div>
          )}
          {generalError && (
            <Alert color="red" role="alert">
              {generalError}
            </Alert>
          )}
          {!bulk.result && (
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={sending}
                disabled={!templateId || ready === 0 || !!sharedProblem}
              >
                {ready === 1 ? "Issue 1 license" : `Issue ${ready} licenses`}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
      {bulk.result && (
        <Results
          outcomes={bulk.result.outcomes}
          onAgain={() => {
            bulk.reset();
            setCsv("");
            setFile(null);
          }}
        />
      )}
    </>
  );
}

function Preview({ rows, ready }: { rows: BulkRow[]; ready: number }) {
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
      {rows.length === 0 ? (
        <Text c="dimmed" p="md" ta="center">
          The CSV has a header but no row.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label="Preview of the rows">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Company</Table.Th>
                <Table.Th>Configuration</Table.Th>
                <Table.Th w="40%">Check</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.row}>
                  <Table.Td>{r.row}</Table.Td>
                  <Table.Td>{r.companyName ?? r.company}</Table.Td>
                  <Table.Td>{r.config ? <Code>{r.config}</Code> : "the batch's"}</Table.Td>
                  <Table.Td>
                    {r.problem ? (
                      <Text c="red.8" size="sm">
                        {r.problem}
                      </Text>
                    ) : (
                      <StatusBadge of="bulkRow" status="ready" />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

function Results({ outcomes, onAgain }: { outcomes: BulkOutcome[]; onAgain: () => void }) {
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
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="Results per row">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Row</Table.Th>
              <Table.Th>Company</Table.Th>
              <Table.Th w={120}>Result</Table.Th>
              <Table.Th>License key or error</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {outcomes.map((o) => (
              <Table.Tr key={o.row.row}>
                <Table.Td>{o.row.row}</Table.Td>
                <Table.Td>{o.row.companyName ?? o.row.company}</Table.Td>
                <Table.Td>
                  <StatusBadge of="bulkRow" status={o.status} />
                </Table.Td>
                <Table.Td>
                  {o.result?.licenseId && o.result.licenseKey ? (
                    <LicenseKeyLink id={o.result.licenseId} licenseKey={o.result.licenseKey} />
                  ) : (
                    <Text size="sm">
                      {o.errorMessage} {o.errorCode && <Code>{o.errorCode}</Code>}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
