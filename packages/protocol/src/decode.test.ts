import { describe, expect, it } from "vitest";
import floatingTokenVector from "../vectors/floating-token.json" with { type: "json" };
import leaseTokenVector from "../vectors/lease-token.json" with { type: "json" };
import markerVector from "../vectors/marker.json" with { type: "json" };
import tokenVector from "../vectors/token.json" with { type: "json" };
import { encodeBase64url } from "./base64url.ts";
import { decodeLeaseToken, decodeMarker, decodeToken } from "./decode.ts";
import { parseLeaseToken } from "./lease-token.ts";
import { parseMarker } from "./marker.ts";
import { parseToken } from "./token.ts";

const [header, , signature] = tokenVector.token.split(".") as [string, string, string];
const markerSignature = markerVector.marker.split(".")[1]!;
const segment = (value: unknown) => encodeBase64url(JSON.stringify(value));
const oddValues = [undefined, null, "", "x", -1, 0, 1, 1.5, 2 ** 53, true, [], {}, ["a"], { a: 1 }];

/** Every member replaced by each odd value (or removed), one at a time. */
function* mutations(base: Record<string, unknown>, path: string[] = []): Generator<Record<string, unknown>> {
  for (const [key, value] of Object.entries(base)) {
    for (const odd of oddValues) yield { ...base, [key]: odd };
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const inner of mutations(value as Record<string, unknown>, [...path, key]))
        yield { ...base, [key]: inner };
    }
  }
}

describe("decodeToken, decodeMarker and decodeLeaseToken agree with the zod schemas", () => {
  it("on the golden vectors", () => {
    expect(decodeToken(tokenVector.token)).toEqual(parseToken(tokenVector.token));
    expect(decodeToken(floatingTokenVector.token)).toEqual(parseToken(floatingTokenVector.token));
    expect(decodeMarker(markerVector.marker)).toEqual(parseMarker(markerVector.marker));
    expect(decodeLeaseToken(leaseTokenVector.leaseToken)).toEqual(
      parseLeaseToken(leaseTokenVector.leaseToken),
    );
  });

  it("on every claim, header member and marker member replaced by odd values", () => {
    const cases: string[] = [];
    for (const claims of mutations(tokenVector.claims))
      cases.push(`${header}.${segment(claims)}.${signature}`);
    for (const claims of mutations(floatingTokenVector.claims))
      cases.push(`${header}.${segment(claims)}.${signature}`);
    for (const [fm, sm] of [
      ["other", "floating"],
      ["fuzzy", "other"],
      ["strict", "nodeLocked"],
    ])
      cases.push(`${header}.${segment({ ...floatingTokenVector.claims, fm, sm })}.${signature}`);
    // The optional members, valid and not.
    for (const [key, values] of Object.entries({
      fm: ["exact", "strict", "fuzzy", "loose", "other", null, 1],
      rv: ["graceful", "immediate", "eventually", null, true],
    })) {
      for (const value of values)
        cases.push(`${header}.${segment({ ...tokenVector.claims, [key]: value })}.${signature}`);
    }
    for (const mode of ["none", "fixed", "firstActivation", "other"]) {
      cases.push(
        `${header}.${segment({ ...tokenVector.claims, hw: { mode, fp: null, extra: 1 } })}.${signature}`,
      );
    }
    const claims = segment(tokenVector.claims);
    for (const h of mutations(tokenVector.header)) cases.push(`${segment(h)}.${claims}.${signature}`);
    cases.push(`${segment({ ...tokenVector.header, crit: [] })}.${claims}.${signature}`);
    cases.push(
      `${header}.${claims}`,
      `${header}.${claims}.${signature}.x`,
      `${header}.${segment([1])}.${signature}`,
    );
    for (const token of cases) expect(decodeToken(token), token).toEqual(parseToken(token));

    const markers = [...mutations(markerVector.payload)].map((p) => `${segment(p)}.${markerSignature}`);
    markers.push(`${segment(markerVector.payload)}`, `${segment("text")}.${markerSignature}`);
    // A marker payload with typ is a lease token's; a lease token without typ "lease" is none.
    markers.push(`${segment({ ...markerVector.payload, typ: "lease" })}.${markerSignature}`);
    markers.push(leaseTokenVector.leaseToken);
    for (const kid of [tokenVector.keyId, "not-a-uuid", null, 7])
      markers.push(`${segment({ ...markerVector.payload, kid })}.${markerSignature}`);
    for (const marker of markers) expect(decodeMarker(marker), marker).toEqual(parseMarker(marker));

    const leases = [...mutations(leaseTokenVector.payload)].map((p) => `${segment(p)}.${markerSignature}`);
    leases.push(markerVector.marker, `${segment(leaseTokenVector.payload)}`);
    for (const lease of leases) expect(decodeLeaseToken(lease), lease).toEqual(parseLeaseToken(lease));
  });
});
