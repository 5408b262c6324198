import { describe, expect, it } from "vitest";
import tokenVector from "../vectors/token.json" with { type: "json" };
import { decodeJsonSegment, encodeBase64url } from "./base64url.ts";
import type { TokenClaims } from "./claims.ts";
import { encodeTokenSigningInput, parseToken } from "./token.ts";

// The fingerprint matching claim `fm` (decision 0046): written after `hw` when the license has one,
// absent from tokens signed before it, and one of the four modes when present.
const claims = tokenVector.claims as TokenClaims;
const tokenWith = (payload: unknown) =>
  `${encodeBase64url(JSON.stringify(tokenVector.header))}.${encodeBase64url(JSON.stringify(payload))}.${"A".repeat(86)}`;

describe("the fm claim", () => {
  it("is encoded right after hw, and not at all when absent", () => {
    const withFm = encodeTokenSigningInput(tokenVector.keyId, { ...claims, fm: "strict" });
    const payload = decodeJsonSegment(withFm.split(".")[1]!)!;
    expect(Object.keys(payload)).toEqual([
      "iss",
      "sub",
      "lid",
      "lk",
      "tpl",
      "ver",
      "iat",
      "exp",
      "trial",
      "hw",
      "fm",
      "cfg",
    ]);
    expect(encodeTokenSigningInput(tokenVector.keyId, claims)).not.toContain(encodeBase64url('"fm"'));
  });

  it.each(["exact", "strict", "fuzzy", "loose"] as const)("parses %s", (fm) => {
    const parsed = parseToken(tokenWith({ ...claims, fm }));
    expect(parsed.ok && parsed.token.claims.fm).toBe(fm);
  });

  it("refuses another value", () => {
    expect(parseToken(tokenWith({ ...claims, fm: "approximate" }))).toEqual({
      ok: false,
      reason: "invalid_claims",
    });
  });
});

// The floating seat claims (decision 0048): sm, ls and mb after fm, each optional.
describe("the sm, ls and mb claims", () => {
  it.each([
    [{ sm: "floating", ls: 900, mb: 0 }, true],
    [{ sm: "nodeLocked" }, true],
    [{ sm: "concurrent" }, false],
    [{ ls: 0 }, false],
    [{ ls: 1.5 }, false],
    [{ mb: -1 }, false],
    [{ mb: "7" }, false],
  ])("%j parses: %s", (extra, ok) => {
    const parsed = parseToken(tokenWith({ ...claims, ...extra }));
    expect(parsed.ok).toBe(ok);
    if (parsed.ok) expect(parsed.token.claims).toMatchObject(extra);
  });
});
