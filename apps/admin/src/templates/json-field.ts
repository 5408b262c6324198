/**
 * Where a JSON text fails to parse, as "line L, column C: reason", or null when it parses. Browsers'
 * JSON.parse messages differ and often give no position, so a small scanner finds it.
 */
export function jsonError(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch {
    const { offset, reason } = locate(text);
    const before = text.slice(0, offset).split("\n");
    return `line ${before.length}, column ${before.at(-1)!.length + 1}: ${reason}`;
  }
}

class Stop {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

function locate(text: string): Stop {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (reason: string): never => {
    throw new Stop(i, i >= text.length ? "unexpected end of the text" : reason);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${JSON.stringify(text[i])}`);
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("a control character inside a string");
      i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail(`unexpected ${JSON.stringify(text[i])}`);
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") return members("}", true);
    if (c === "[") return members("]", false);
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail(`expected a value, found ${JSON.stringify(c)}`);
  };
  const members = (close: string, keyed: boolean) => {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      if (keyed) {
        ws();
        if (text[i] !== '"') fail("expected a property name in double quotes");
        string();
        ws();
        if (text[i] !== ":") fail("expected ':' after the property name");
        i++;
      }
      value();
      ws();
      if (text[i] === ",") {
        i++;
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`expected ',' or '${close}'`);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail("unexpected text after the JSON value");
    return new Stop(i, "not valid JSON");
  } catch (error) {
    if (error instanceof Stop) return error;
    throw error;
  }
}

export const pretty = (json: string) => {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
};
