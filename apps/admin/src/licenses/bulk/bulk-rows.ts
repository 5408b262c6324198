import type { RouterOutputs } from "@licensing/api";
import type { CompanyResponse } from "@licensing/contracts";
import { CsvError, parseCsv, toCsv } from "../../lib/csv.ts";
import { jsonError } from "../../templates/json-field.ts";

/** A data row of the uploaded CSV, checked against what the browser knows before anything is sent. */
export interface BulkRow {
  /** The spreadsheet's row number: the header is row 1. */
  row: number;
  company: string;
  companyId: string | null;
  companyName: string | null;
  /** The row's own configuration (JSON object text), or null for the batch's. */
  config: string | null;
  /** Why the row will not be sent, or null when it is ready. */
  problem: string | null;
}

export type BulkResult = RouterOutputs["licenses"]["bulkIssue"]["results"][number];

/** A row after sending: the server's result, or why it was not sent. */
export interface BulkOutcome {
  row: BulkRow;
  status: "issued" | "failed" | "skipped" | "not sent";
  result: BulkResult | null;
  errorCode: string | null;
  errorMessage: string | null;
}

export const COLUMNS = { company: "company", config: "config" } as const;

/**
 * Reads the CSV: a header naming the columns (`company`, and `config` optionally; others are ignored),
 * then a row per license. A company is its id or its slug among the companies the user can see.
 * Blank rows are skipped. Returns an error (a sentence) when the file itself cannot be read.
 */
export function readBulkCsv(
  text: string,
  companies: readonly CompanyResponse[],
): { rows: BulkRow[]; error: null } | { rows: null; error: string } {
  let records: string[][];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvError) return { rows: null, error: error.message };
    throw error;
  }
  const header = (records[0] ?? []).map((name) => name.trim().toLowerCase());
  const companyAt = header.indexOf(COLUMNS.company);
  const configAt = header.indexOf(COLUMNS.config);
  if (companyAt < 0) {
    const found = header.filter(Boolean).join(", ") || "nothing";
    return {
      rows: null,
      error: `The first row must name the columns: "company" and, optionally, "config" (found: ${found})`,
    };
  }
  const byId = new Map(companies.map((c) => [c.id, c]));
  const bySlug = new Map(companies.map((c) => [c.slug.toLowerCase(), c]));
  const rows: BulkRow[] = [];
  records.slice(1).forEach((record, index) => {
    if (record.every((field) => field.trim() === "")) return;
    const company = (record[companyAt] ?? "").trim();
    const config = configAt < 0 ? "" : (record[configAt] ?? "").trim();
    const found = byId.get(company) ?? bySlug.get(company.toLowerCase());
    rows.push({
      row: index + 2,
      company,
      companyId: found?.id ?? null,
      companyName: found?.name ?? null,
      config: config || null,
      problem: companyProblem(company, found) ?? configProblem(config),
    });
  });
  return { rows, error: null };
}

function companyProblem(company: string, found: CompanyResponse | undefined): string | null {
  if (!company) return "The company is empty";
  if (!found) return `No company with the id or slug "${company}" among the companies you can see`;
  if (found.status !== "Active") return `${found.name} is archived: no license can be issued for it`;
  return null;
}

/** Null for an empty config (the batch's applies) or a JSON object; otherwise what is wrong with it. */
export function configProblem(config: string): string | null {
  if (!config) return null;
  const syntax = jsonError(config);
  if (syntax) return `The config is not valid JSON (${syntax})`;
  const value: unknown = JSON.parse(config);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "The config must be a JSON object, like {}";
  return null;
}

/** Pairs the rows with the server's results: the ready rows were sent in order, so results follow them. */
export function outcomes(
  rows: readonly BulkRow[],
  results: readonly BulkResult[],
  stopped: { code: string | null; message: string } | null,
): BulkOutcome[] {
  let next = 0;
  return rows.map((row): BulkOutcome => {
    if (row.problem)
      return { row, status: "skipped", result: null, errorCode: null, errorMessage: row.problem };
    const result = results[next++];
    if (!result)
      return {
        row,
        status: "not sent",
        result: null,
        errorCode: stopped?.code ?? null,
        errorMessage: stopped ? `Not sent: ${stopped.message}` : "Not sent",
      };
    return {
      row,
      status: result.licenseKey ? "issued" : "failed",
      result,
      errorCode: result.errorCode,
      errorMessage: result.errorMessage,
    };
  });
}

/** The results as a CSV file, one row per uploaded row. */
export function outcomesCsv(list: readonly BulkOutcome[]): string {
  return toCsv([
    ["row", "company", "companyId", "status", "licenseKey", "licenseId", "errorCode", "errorMessage"],
    ...list.map((o) => [
      o.row.row,
      o.row.company,
      o.row.companyId,
      o.status,
      o.result?.licenseKey,
      o.result?.licenseId,
      o.errorCode,
      o.errorMessage,
    ]),
  ]);
}

/** Consecutive slices of at most `size` items. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
