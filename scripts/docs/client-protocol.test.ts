import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import markerVector from "@licensing/protocol/vectors/marker.json" with { type: "json" };
import tokenVector from "@licensing/protocol/vectors/token.json" with { type: "json" };
import { deriveStatus } from "@licensing/client/core";
import { describe, expect, it } from "vitest";

const doc = readFileSync(fileURLToPath(new URL("../../docs/client-protocol.md", import.meta.url)), "utf8");
const vectorsDir = fileURLToPath(new URL("../../packages/protocol/vectors/", import.meta.url));
const vectors = readdirSync(vectorsDir)
  .filter((name) => name.endsWith(".json"))
  .map((name) => readFileSync(`${vectorsDir}${name}`, "utf8"))
  .join("\n");
const decoded = (segment: string) => Buffer.from(segment, "base64url").toString("utf8");

describe("docs/client-protocol.md quotes the golden vectors", () => {
  it("every token, marker, key, hash and signature it shows is in packages/protocol/vectors", () => {
    // Runs of 40 or more base64url or hex characters (a table's `---` rows aside).
    const quoted = [...doc.matchAll(/[A-Za-z0-9_-]{40,}/g)]
      .map((m) => m[0])
      .filter((t) => /[A-Za-z0-9]/.test(t));
    expect(quoted.length).toBeGreaterThan(10);
    expect(quoted.filter((text) => !vectors.includes(text))).toEqual([]);
  });

  it("shows the decoded header, claims and marker payload byte for byte", () => {
    const [header, claims] = tokenVector.token.split(".") as [string, string];
    expect(doc).toContain(decoded(header));
    expect(doc).toContain(decoded(claims));
    expect(doc).toContain(decoded(markerVector.marker.split(".")[0]!));
  });
});

describe("docs/client-protocol.md's status example", () => {
  it("is what the SDK's deriveStatus says for the vectors' token and marker", () => {
    const section = doc.slice(doc.indexOf("With the vectors' token"), doc.indexOf("## State on disk"));
    const rows = [...section.matchAll(/^\| (\d{4}-\d\d-\d\dT[\d:]+Z)[^|]*\| `(\w+)` +\| `([\w-]+)`/gm)];
    expect(rows.length).toBe(6);
    const inputs = {
      license: { expiresAt: tokenVector.claims.exp * 1000 },
      marker: { issuedAt: markerVector.payload.iat * 1000, expiresAt: markerVector.payload.exp * 1000 },
    };
    for (const [, time, status, reason] of rows) {
      const details = deriveStatus(inputs, Date.parse(time!));
      expect([time, details.status, details.reason]).toEqual([time, status, reason]);
    }
  });
});
