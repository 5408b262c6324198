import { describe, expect, it } from "vitest";
import { locateJsonError } from "./json-error-position.ts";

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("locateJsonError", () => {
  it.each([
    ['{"type": "object",}', 18, 'unexpected character "}"'],
    ['{"a": tru}', 6, 'unexpected character "t"'],
    ['{"a" 1}', 5, 'unexpected character "1"'],
    ["[1, 2", 5, "unexpected end of input"],
    ['{"a": 1} x', 9, 'unexpected "x" after the JSON value'],
    ['["\\x"]', 3, 'unexpected character "x"'],
    ["[01]", 2, "expected ',' or ']', found \"1\""],
    ["", 0, "unexpected end of input"],
    ['{"a": [1 2]}', 9, "expected ',' or ']', found \"2\""],
  ])("places the error in %j at offset %i", (text, offset, reason) => {
    expect(parses(text)).toBe(false);
    expect(locateJsonError(text)).toEqual({ offset, reason });
  });

  it("agrees with JSON.parse on valid and broken variants of a document", () => {
    const document = JSON.stringify(
      { a: [1, -2.5e3, true, false, null, 'x\\n\\u00e9"q'], b: { c: {}, d: [] }, e: 0 },
      null,
      2,
    );
    expect(locateJsonError(document)).toBeNull();
    const replacements = [
      "",
      " ",
      ",",
      "}",
      "]",
      "{",
      "[",
      '"',
      "0",
      "-",
      "e",
      ".",
      "\\",
      "\n",
      "x",
      "\u0001",
    ];
    for (let i = 0; i < document.length; i++) {
      for (const r of replacements) {
        const variant = document.slice(0, i) + r + document.slice(i + 1);
        const located = locateJsonError(variant);
        expect(located === null, JSON.stringify(variant)).toBe(parses(variant));
        if (located) expect(located.offset).toBeLessThanOrEqual(variant.length);
      }
    }
  });

  it("handles deep nesting without overflowing the stack", () => {
    expect(locateJsonError("[".repeat(200_000))).toEqual({
      offset: 200_000,
      reason: "unexpected end of input",
    });
  });
});
