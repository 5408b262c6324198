const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};
const TERM = /([+-]?)(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/y;

/**
 * A duration in milliseconds from text such as `3d`, `90s`, `1d12h`, `24h+1s` or `7d-1s` (a sum of
 * signed terms; units ms, s, m, h, d, w). Null when the text is not one.
 */
export function parseDuration(text: string): number | null {
  const source = text.replace(/\s+/g, "");
  if (source === "") return null;
  let total = 0;
  TERM.lastIndex = 0;
  while (TERM.lastIndex < source.length) {
    const at = TERM.lastIndex;
    const match = TERM.exec(source);
    // After the first term, each term needs its sign or follows directly (`1d12h`).
    if (!match || match.index !== at) return null;
    const [, sign, amount, unit] = match;
    total += (sign === "-" ? -1 : 1) * Number(amount) * UNITS[unit!]!;
  }
  return Math.round(total);
}

/** `3d 4h 0m 1s`-style text for a duration, for messages and the timeline. */
export function formatDuration(ms: number): string {
  if (ms === 0) return "0s";
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(ms);
  const parts: string[] = [];
  for (const [unit, size] of [
    ["d", UNITS.d!],
    ["h", UNITS.h!],
    ["m", UNITS.m!],
    ["s", UNITS.s!],
    ["ms", 1],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return sign + parts.join("");
}
