import type { CompanyResponse } from "@licensing/contracts";
import { describe, expect, it } from "vitest";
import { parseCsv } from "../../lib/csv.ts";
import { chunks, outcomes, outcomesCsv, readBulkCsv } from "./bulk-rows.ts";

const company = (id: string, slug: string, status: "Active" | "Archived" = "Active"): CompanyResponse => ({
  id,
  name: slug.toUpperCase(),
  slug,
  parentId: null,
  path: `/${id}/`,
  depth: 0,
  status,
  contactEmail: null,
  createdAt: "2026-01-01T00:00:00.000Z",
});
const ACME = company("00000000-0000-4000-8000-000000000001", "acme");
const GLOBEX = company("00000000-0000-4000-8000-000000000002", "globex");
const OLD = company("00000000-0000-4000-8000-000000000003", "old", "Archived");
const companies = [ACME, GLOBEX, OLD];

describe("readBulkCsv", () => {
  it("finds companies by id or slug (any case) and keeps each row's config", () => {
    const csv = `Company,Notes,Config\nacme,first,\n${GLOBEX.id},,"{""edition"":""pro""}"\nACME,,{}\n`;
    const { rows } = readBulkCsv(csv, companies);
    expect(rows).toEqual([
      { row: 2, company: "acme", companyId: ACME.id, companyName: "ACME", config: null, problem: null },
      {
        row: 3,
        company: GLOBEX.id,
        companyId: GLOBEX.id,
        companyName: "GLOBEX",
        config: '{"edition":"pro"}',
        problem: null,
      },
      { row: 4, company: "ACME", companyId: ACME.id, companyName: "ACME", config: "{}", problem: null },
    ]);
  });

  it("flags unknown, empty and archived companies, bad JSON and non-objects, and skips blank rows", () => {
    const csv = "company,config\nnobody,\n,\n\nold,\nacme,{nope}\nacme,[1]\n";
    const { rows } = readBulkCsv(csv, companies);
    expect(rows!.map((r) => [r.row, r.problem])).toEqual([
      [2, 'No company with the id or slug "nobody" among the companies you can see'],
      [5, "OLD is archived: no license can be issued for it"],
      [6, "The config is not valid JSON (line 1, column 2: expected a property name in double quotes)"],
      [7, "The config must be a JSON object, like {}"],
    ]);
  });

  it("says what is wrong with the file itself: no company column, an unclosed quote", () => {
    expect(readBulkCsv("name,config\nacme,{}\n", companies).error).toBe(
      'The first row must name the columns: "company" and, optionally, "config" (found: name, config)',
    );
    expect(readBulkCsv('company,config\nacme,"{\n', companies).error).toBe(
      "Line 2: a quoted field is not closed",
    );
  });
});

describe("outcomes", () => {
  const { rows } = readBulkCsv("company\nacme\nnobody\nglobex\nacme\n", companies);
  const issued = {
    companyId: ACME.id,
    licenseId: "l1",
    licenseKey: "SVC-1",
    errorCode: null,
    errorMessage: null,
  };
  const failed = {
    companyId: GLOBEX.id,
    licenseId: null,
    licenseKey: null,
    errorCode: "license.invalid_config",
    errorMessage: "bad config",
  };

  it("gives the sent rows the results in order and the flagged ones their problem", () => {
    const list = outcomes(rows!, [issued, failed], { code: "template.not_found", message: "No template" });
    expect(list.map((o) => [o.row.row, o.status, o.errorCode, o.errorMessage])).toEqual([
      [2, "issued", null, null],
      [3, "skipped", null, 'No company with the id or slug "nobody" among the companies you can see'],
      [4, "failed", "license.invalid_config", "bad config"],
      [5, "not sent", "template.not_found", "Not sent: No template"],
    ]);
    const csv = parseCsv(outcomesCsv(list));
    expect(csv[0]).toEqual([
      "row",
      "company",
      "companyId",
      "status",
      "licenseKey",
      "licenseId",
      "errorCode",
      "errorMessage",
    ]);
    expect(csv[1]).toEqual(["2", "acme", ACME.id, "issued", "SVC-1", "l1", "", ""]);
    expect(csv[3]).toEqual([
      "4",
      "globex",
      GLOBEX.id,
      "failed",
      "",
      "",
      "license.invalid_config",
      "bad config",
    ]);
  });
});

describe("chunks", () => {
  it("cuts 450 items into 200, 200 and 50", () => {
    const items = Array.from({ length: 450 }, (_, i) => i);
    expect(chunks(items, 200).map((c) => [c[0], c.length])).toEqual([
      [0, 200],
      [200, 200],
      [400, 50],
    ]);
    expect(chunks([], 200)).toEqual([]);
  });
});
