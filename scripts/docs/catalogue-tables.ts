/**
 * The tables of docs/behaviour.md that restate a catalogue of the code: error kinds and their HTTP status,
 * every error code, every webhook event type with its payload. The columns the code decides are written
 * from the code; the prose column ("When", "Published when") is kept from the document, by code.
 *
 *   npx tsx scripts/docs/catalogue-tables.ts           # rewrites the tables in docs/behaviour.md
 *
 * `catalogue-tables.test.ts` fails when the document and the code disagree, or a prose cell is empty.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DomainEvent, errorCatalogue, errorKinds, type ErrorCode } from "@licensing/contracts";
import { format } from "prettier";
import type { z } from "zod";
// The one table from error kind to HTTP status and tRPC code; @licensing/api does not export it.
import { errorKindMapping } from "../../packages/api/src/errors.ts";

export const BEHAVIOUR_MD = fileURLToPath(new URL("../../docs/behaviour.md", import.meta.url));

/** A generated table: its marker name, header, and the rows the code decides (prose cells last). */
export interface CatalogueTable {
  name: string;
  header: string[];
  /** How many leading cells of a row the code decides; the cells after them are prose kept by key. */
  decided: number;
  rows: string[][];
}

const code = (text: string) => `\`${text}\``;

export function errorKindTable(): CatalogueTable {
  return {
    name: "error-kinds",
    header: ["Kind", "HTTP", "tRPC code"],
    decided: 3,
    rows: errorKinds.map((kind) => [
      code(kind),
      String(errorKindMapping[kind].status),
      code(errorKindMapping[kind].trpc),
    ]),
  };
}

export function errorCodeTable(): CatalogueTable {
  return {
    name: "error-codes",
    header: ["Code", "HTTP", "Kind", "When"],
    decided: 3,
    rows: (Object.keys(errorCatalogue) as ErrorCode[]).map((c) => {
      const kind = errorCatalogue[c];
      return [code(c), String(errorKindMapping[kind].status), code(kind)];
    }),
  };
}

/** A payload field's type in words: `uuid`, `timestamp`, `string or null`, `"none", "fixed" …`. */
function describeType(schema: z.ZodType): string {
  const def = schema.def as { type: string; format?: string; innerType?: z.ZodType; entries?: object };
  switch (def.type) {
    case "nullable":
      return `${describeType(def.innerType!)} or null`;
    case "string":
      return def.format === "uuid" ? "uuid" : def.format === "datetime" ? "timestamp" : "string";
    case "number":
      return (schema as z.ZodNumber).isInt ? "integer" : "number";
    case "boolean":
      return "boolean";
    case "enum": {
      const values = Object.values(def.entries!).map((v) => `"${String(v)}"`);
      return `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
    }
    default:
      return def.type;
  }
}

export function eventTypeTable(): CatalogueTable {
  return {
    name: "event-types",
    header: ["Event", "Data", "Published when"],
    decided: 2,
    rows: DomainEvent.options.map((option) => [
      code(option.shape.type.value),
      Object.entries(option.shape.data.shape as Record<string, z.ZodType>)
        .map(([field, schema]) => `${code(field)} ${describeType(schema)}`)
        .join(", "),
    ]),
  };
}

export const catalogueTables = () => [errorKindTable(), errorCodeTable(), eventTypeTable()];

const markers = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const;

/** The cells of a Markdown table row, trimmed (no escaped pipes are used in these tables). */
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());

/** The body rows of the table between the markers `name` in `markdown`; null when the markers are missing. */
export function readTable(markdown: string, name: string): string[][] | null {
  const [open, close] = markers(name);
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start < 0 || end < start) return null;
  const lines = markdown
    .slice(start + open.length, end)
    .split("\n")
    .filter((line) => line.trim().startsWith("|"));
  // The header, then the delimiter row.
  return lines.slice(2).map(cells);
}

const TODO = "TODO: describe";

/** The table as Markdown: the decided cells from the code, the prose cells from `previous` by first cell. */
export function renderTable(table: CatalogueTable, previous: string[][]): string {
  const prose = new Map(previous.map((row) => [row[0], row.slice(table.decided)]));
  const width = table.header.length - table.decided;
  const row = (values: string[]) => `| ${values.join(" | ")} |`;
  const lines = [row(table.header), row(table.header.map(() => "---"))];
  for (const decided of table.rows) {
    const kept = prose.get(decided[0]) ?? [];
    lines.push(row([...decided, ...Array.from({ length: width }, (_, i) => kept[i] || TODO)]));
  }
  return lines.join("\n");
}

/** `markdown` with every catalogue table written afresh (not yet formatted). */
export function withCatalogueTables(markdown: string): string {
  let out = markdown;
  for (const table of catalogueTables()) {
    const [open, close] = markers(table.name);
    const previous = readTable(out, table.name);
    if (!previous) throw new Error(`docs/behaviour.md lacks the markers ${open} … ${close}`);
    const start = out.indexOf(open) + open.length;
    out = `${out.slice(0, start)}\n\n${renderTable(table, previous)}\n\n${out.slice(out.indexOf(close))}`;
  }
  return out;
}

/** What a table in the document gets wrong against the code (empty when they agree). */
export function tableProblems(markdown: string, table: CatalogueTable): string[] {
  const rows = readTable(markdown, table.name);
  if (!rows) return [`the markers of the ${table.name} table are missing`];
  const problems: string[] = [];
  const documented = new Map(rows.map((row) => [row[0], row]));
  for (const expected of table.rows) {
    const row = documented.get(expected[0]);
    if (!row) {
      problems.push(`${expected[0]} is missing from the ${table.name} table`);
      continue;
    }
    const decided = row.slice(0, table.decided);
    if (decided.join(" | ") !== expected.join(" | ")) {
      problems.push(
        `${expected[0]}: the document says ${decided.join(" | ")}, the code ${expected.join(" | ")}`,
      );
    }
    const prose = row.slice(table.decided);
    if (prose.length !== table.header.length - table.decided || prose.some((c) => !c || c === TODO)) {
      problems.push(`${expected[0]}: describe it in the ${table.name} table`);
    }
  }
  const known = new Set(table.rows.map((row) => row[0]));
  for (const row of rows) {
    if (!known.has(row[0])) problems.push(`${row[0]} is in the ${table.name} table but not in the code`);
  }
  const order = rows.map((row) => row[0]).filter((key) => known.has(key));
  const expectedOrder = table.rows.map((row) => row[0]).filter((key) => documented.has(key));
  if (order.join() !== expectedOrder.join())
    problems.push(`the ${table.name} table is not in the code's order`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const markdown = readFileSync(BEHAVIOUR_MD, "utf8");
  const written = await format(withCatalogueTables(markdown), { filepath: BEHAVIOUR_MD });
  writeFileSync(BEHAVIOUR_MD, written);
  const todo = written.split(TODO).length - 1;
  console.log(`docs/behaviour.md: tables written${todo ? `; ${todo} cells say "${TODO}"` : ""}`);
}
