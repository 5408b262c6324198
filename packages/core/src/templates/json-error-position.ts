/**
 * Where and why a text stops being JSON (RFC 8259). JSON.parse says so only in some messages of some
 * Node versions, so after it fails this scanner finds the offset itself. Iterative, so deeply nested
 * input cannot overflow the stack.
 */
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

export function locateJsonError(text: string): { offset: number; reason: string } | null {
  let i = 0;
  const stack: Array<"{" | "["> = [];
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const describe = () =>
    i >= text.length ? "unexpected end of input" : `unexpected character ${JSON.stringify(text[i])}`;
  const error = (reason = describe()) => ({ offset: Math.min(i, text.length), reason });

  const scanString = (): boolean => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const next = text[i + 1];
        if (next === "u") {
          i += 1;
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) return false;
          i += 5;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else {
          i += 1;
          return false;
        }
      } else i++;
    }
    return false;
  };
  const scanNumber = (): boolean => {
    NUMBER.lastIndex = i;
    const match = NUMBER.exec(text);
    if (!match) return false;
    i += match[0].length;
    return true;
  };
  const scanScalar = (): boolean => {
    const c = text[i];
    if (c === '"') return scanString();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return scanNumber();
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return true;
      }
    }
    return false;
  };
  const scanKey = (): boolean => {
    ws();
    if (text[i] !== '"' || !scanString()) return false;
    ws();
    if (text[i] !== ":") return false;
    i++;
    return true;
  };

  let expectValue = true;
  for (;;) {
    ws();
    if (expectValue) {
      const c = text[i];
      if (c === "{" || c === "[") {
        stack.push(c);
        i++;
        ws();
        if (text[i] === (c === "{" ? "}" : "]")) {
          stack.pop();
          i++;
          expectValue = false;
        } else if (c === "{" && !scanKey()) return error();
        continue;
      }
      if (!scanScalar()) return error();
      expectValue = false;
      continue;
    }
    const open = stack.at(-1);
    if (!open) break;
    const close = open === "{" ? "}" : "]";
    if (text[i] === close) {
      stack.pop();
      i++;
      continue;
    }
    if (text[i] !== ",") {
      return error(
        i >= text.length ? undefined : `expected ',' or '${close}', found ${JSON.stringify(text[i])}`,
      );
    }
    i++;
    if (open === "{" && !scanKey()) return error();
    expectValue = true;
  }
  return i < text.length ? error(`unexpected ${JSON.stringify(text[i])} after the JSON value`) : null;
}
