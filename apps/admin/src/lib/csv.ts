/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF or LF; a field in double quotes may hold
 * commas, line breaks and doubled quotes (""). A byte-order mark and a final line break are ignored.
 * Throws a `CsvError` naming the line of an unclosed quote or of text after a closing quote.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  const endField = () => {
    row.push(field);
    field = "";
    quoted = false;
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === "" && !quoted) {
      const start = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvError(start, "a quoted field is not closed");
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          field += '"';
          i += 2;
          continue;
        }
        if (text[i] === "\n") line++;
        field += text[i];
        i++;
      }
      i++;
      const next = text[i];
      if (next !== undefined && next !== "," && next !== "\n" && next !== "\r")
        throw new CsvError(line, "text after a closing quote (a quote inside a field is written twice)");
      quoted = true;
      continue;
    }
    if (c === ",") {
      endField();
    } else if (c === "\n" || c === "\r") {
      endRow();
      if (c === "\r" && text[i + 1] === "\n") i++;
      line++;
    } else {
      field += c;
    }
    i++;
  }
  if (field !== "" || quoted || row.length > 0) endRow();
  return rows;
}

export class CsvError extends Error {
  constructor(
    readonly line: number,
    reason: string,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

/** One CSV record per row, quoting the fields that need it, lines ended by CRLF (RFC 4180). */
export function toCsv(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  const field = (value: string | number | null | undefined) => {
    const text = value === null || value === undefined ? "" : String(value);
    return /[",\r\n]/.test(text) || /^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
}
