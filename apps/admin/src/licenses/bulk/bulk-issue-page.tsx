import { Alert, Button, Group, Stack } from "@mantine/core";
import { useState } from "react";
import { errorCode, errorMessage } from "../../lib/errors.ts";
import { usePermissions } from "../../lib/me.ts";
import { PageHeader } from "../../lib/ui.tsx";
import { defaultTerms, termsRequest } from "../license-terms.tsx";
import { seatTermsError } from "../seat-terms.ts";
import { useLookups } from "../lookups.ts";
import { configProblem, readBulkCsv } from "./bulk-rows.ts";
import { CsvStep } from "./csv-step.tsx";
import { PreviewStep } from "./preview-step.tsx";
import { ResultsStep } from "./results-step.tsx";
import { SendProgress } from "./send-progress.tsx";
import { TermsStep, type BatchTerms } from "./terms-step.tsx";
import { useBulkIssue } from "./use-bulk-issue.ts";

/** The server's refusals of the batch's terms, each shown at its field rather than above the button. */
const TERM_ERRORS = ["license.invalid_expiry", "license.invalid_config", "license.invalid_binding"];

/**
 * Many licenses of one template from a CSV: the terms, the CSV and its preview, then sending in chunks
 * with progress, and the results per row.
 */
export function BulkIssuePage() {
  const can = usePermissions();
  if (!can.manageLicenses)
    return (
      <>
        <PageHeader title="Bulk issue licenses" />
        <Alert color="yellow">Only an Admin or Owner can issue licenses.</Alert>
      </>
    );
  return <BulkIssue />;
}

function BulkIssue() {
  const lookups = useLookups();
  const bulk = useBulkIssue();
  const [batch, setBatch] = useState<BatchTerms>({
    templateId: null,
    terms: defaultTerms("none"),
    sharedConfig: "",
  });
  const [csv, setCsv] = useState("");
  const [file, setFile] = useState<File | null>(null);

  const read = csv.trim() ? readBulkCsv(csv, lookups.companies) : null;
  const rows = read?.rows ?? [];
  const ready = rows.filter((r) => !r.problem).length;
  const sharedProblem = configProblem(batch.sharedConfig.trim());
  const failure = bulk.result?.error;
  const fieldError = (code: string) => (errorCode(failure) === code ? errorMessage(failure) : undefined);
  const generalError =
    failure && !TERM_ERRORS.includes(errorCode(failure) ?? "") ? errorMessage(failure) : null;

  const editCsv = (text: string) => {
    setCsv(text);
    bulk.reset();
  };
  const loadFile = async (chosen: File | null) => {
    setFile(chosen);
    bulk.reset();
    if (chosen) setCsv(await chosen.text());
  };
  const send = () => {
    if (!batch.templateId || ready === 0 || sharedProblem || seatTermsError(batch.terms)) return;
    const terms = { templateId: batch.templateId, config: batch.sharedConfig.trim() || null };
    void bulk.send({ ...terms, ...termsRequest(batch.terms) }, rows);
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
          <TermsStep
            value={batch}
            onChange={setBatch}
            templates={lookups.templates}
            templateOptions={lookups.templateOptions}
            configProblem={sharedProblem}
            fieldError={fieldError}
          />
          <CsvStep csv={csv} file={file} onCsv={editCsv} onFile={(f) => void loadFile(f)} />
          {read?.error && (
            <Alert color="red" role="alert">
              {read.error}
            </Alert>
          )}
          {read?.rows && !bulk.result && <PreviewStep rows={read.rows} ready={ready} />}
          {bulk.progress && <SendProgress {...bulk.progress} />}
          {generalError && (
            <Alert color="red" role="alert">
              {generalError}
            </Alert>
          )}
          {!bulk.result && (
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={bulk.progress !== null}
                disabled={!batch.templateId || ready === 0 || !!sharedProblem}
              >
                {ready === 1 ? "Issue 1 license" : `Issue ${ready} licenses`}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
      {bulk.result && (
        <ResultsStep
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
