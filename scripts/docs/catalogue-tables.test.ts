import { readFileSync } from "node:fs";
import { errorCatalogue, EVENT_TYPES } from "@licensing/contracts";
import { describe, expect, it } from "vitest";
import {
  BEHAVIOUR_MD,
  catalogueTables,
  errorCodeTable,
  eventTypeTable,
  readTable,
  tableProblems,
  withCatalogueTables,
} from "./catalogue-tables.ts";

const behaviour = readFileSync(BEHAVIOUR_MD, "utf8");

describe("docs/behaviour.md against the catalogues of the code", () => {
  it.each(catalogueTables().map((table) => [table.name, table] as const))(
    "the %s table says what the code says, row for row, and describes every row",
    (_name, table) => {
      expect(tableProblems(behaviour, table)).toEqual([]);
    },
  );

  it("lists every error code of the catalogue and every event type", () => {
    const codes = readTable(behaviour, "error-codes")!.map((row) => row[0]);
    expect(codes).toEqual(Object.keys(errorCatalogue).map((code) => `\`${code}\``));
    const events = readTable(behaviour, "event-types")!.map((row) => row[0]);
    expect(events).toEqual(EVENT_TYPES.map((type) => `\`${type}\``));
  });

  it("would catch a code missing from the document, a wrong status, and a code the catalogue lost", () => {
    const codes = errorCodeTable();
    const dropped = behaviour.replace(/^\| `hmac\.stale` .*\n/m, "");
    expect(tableProblems(dropped, codes)).toContain("`hmac.stale` is missing from the error-codes table");
    const wrongStatus = behaviour.replace(/^(\| `hmac\.stale` +\| )401/m, "$1400");
    expect(tableProblems(wrongStatus, codes).join()).toMatch(/`hmac\.stale`: the document says .*400/);
    const extra = behaviour.replace(
      /^(\| `hmac\.stale` .*\n)/m,
      "$1| `hmac.gone` | 401 | `Unauthorized` | no longer raised |\n",
    );
    expect(tableProblems(extra, codes)).toContain(
      "`hmac.gone` is in the error-codes table but not in the code",
    );
    const undescribed = behaviour.replace(/^(\| `license\.revoked` +\|[^|]*\|)[^|]*\|/m, "$1 |");
    expect(tableProblems(undescribed, eventTypeTable())).toContain(
      "`license.revoked`: describe it in the event-types table",
    );
  });

  it("regenerating the tables keeps every description", () => {
    const rewritten = withCatalogueTables(behaviour);
    for (const table of catalogueTables()) expect(tableProblems(rewritten, table)).toEqual([]);
  });
});
