import { MAX_JSON_DEPTH } from "@licensing/contracts";

/**
 * What PostgreSQL cannot store: a NUL character (refused in `text`, and as `\u0000` in `jsonb`) and an
 * unpaired UTF-16 surrogate (invalid in `jsonb`, silently replaced in `text`). In `u` mode `\p{Cs}`
 * matches only a surrogate that is not part of a pair.
 */
const UNSTORABLE = /[\0\p{Cs}]/u;

export interface UnstorableText {
  /** Dotted path of the offending value or key, e.g. `body.items.3.name`. */
  path: string;
  problem: string;
}

const describe = (text: string) =>
  text.includes("\0")
    ? "contains a NUL character (U+0000), which cannot be stored"
    : "contains an unpaired UTF-16 surrogate, which is not valid Unicode";

/**
 * Walks a parsed JSON value (iteratively, so a hostile nesting cannot overflow the stack) and returns
 * the first string or key that cannot be stored, or a value nested deeper than `maxDepth`; null when
 * everything is fine. Numbers must be finite (JSON.parse turns `1e400` into Infinity).
 */
export function findUnstorable(
  value: unknown,
  root: string,
  maxDepth: number = MAX_JSON_DEPTH,
): UnstorableText | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const { value: current, path, depth } = item;
    if (typeof current === "string") {
      if (UNSTORABLE.test(current)) return { path, problem: describe(current) };
    } else if (typeof current === "number") {
      if (!Number.isFinite(current)) return { path, problem: "is a number out of range" };
    } else if (typeof current === "object" && current !== null) {
      if (depth >= maxDepth) return { path, problem: `is nested deeper than ${maxDepth} levels` };
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        if (UNSTORABLE.test(key)) return { path: childPath, problem: `has a key that ${describe(key)}` };
        stack.push({ value: child, path: childPath, depth: depth + 1 });
      }
    }
  }
  return null;
}

/**
 * Nesting depth of a JSON text, counted without parsing it (brackets outside strings), so a text
 * nested 100,000 levels deep is refused before any recursive code sees it. Stops counting past `limit`.
 */
export function jsonTextDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
