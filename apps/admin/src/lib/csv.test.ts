import { describe, expect, it } from "vitest";
import { CsvError, parseCsv, toCsv } from "./csv.ts";

describe("parseCsv", () => {
  it("splits records on LF and CRLF and fields on commas, ignoring a final line break", () => {
    expect(parseCsv("a,b\r\nc,d\ne,f\n")).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e", "f"],
    ]);
    expect(parseCsv("a,b")).toEqual([["a", "b"]]);
  });

  it("keeps empty fields and empty lines as they are", () => {
    expect(parseCsv("a,,c\n\n,\n")).toEqual([["a", "", "c"], [""], ["", ""]]);
  });

  it("reads quoted fields with commas, line breaks and doubled quotes", () => {
    expect(parseCsv('acme,"{""edition"": ""pro"", ""n"": 1}"\n"two\nlines",""\n')).toEqual([
      ["acme", '{"edition": "pro", "n": 1}'],
      ["two\nlines", ""],
    ]);
  });

  it("drops a byte-order mark (spreadsheets write one)", () => {
    expect(parseCsv("\uFEFFcompany\nacme")).toEqual([["company"], ["acme"]]);
  });

  it("names the line of an unclosed quote or of text after a closing quote", () => {
    expect(() => parseCsv('company\nacme,"{\n')).toThrow(new CsvError(2, "a quoted field is not closed"));
    expect(() => parseCsv('a\n"x"y,z')).toThrowError(/^Line 2: text after a closing quote/);
  });

  it("reads back what toCsv writes", () => {
    const rows = [
      ["row", "message"],
      ["1", 'says "no", then\nstops'],
      ["2", " padded "],
      ["3", ""],
    ];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
    expect(toCsv([["a", 1, null]])).toBe("a,1,\r\n");
  });
});
