import type { FingerprintComponent } from "@licensing/contracts";
import { encodeComponents } from "@licensing/db";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../sql-rows.ts";
import { isSameMachine, matchScore, reachesThreshold, reachesThresholdSql } from "./fingerprint-match.ts";

const hash = (n: number) => n.toString(16).padStart(64, "0");
/** Components `kind-0 … kind-(n-1)` with hashes 0 … n-1. */
const machine = (n: number): FingerprintComponent[] =>
  Array.from({ length: n }, (_, i) => ({ kind: `kind-${i}`, hash: hash(i) }));
/** `stored` with its first `changed` components given other hashes. */
const drifted = (stored: FingerprintComponent[], changed: number) =>
  stored.map((c, i) => (i < changed ? { ...c, hash: hash(1000 + i) } : c));

describe("matchScore", () => {
  it("is the share of the stored kinds whose hash the request repeats", () => {
    const stored = machine(5);
    expect(matchScore(stored, stored)).toBe(1);
    expect(matchScore(stored, drifted(stored, 1))).toBe(0.8);
    expect(matchScore(stored, drifted(stored, 2))).toBe(0.6);
    expect(matchScore(stored, drifted(stored, 5))).toBe(0);
  });

  it("counts a stored kind the request lacks as changed, and ignores kinds the stored machine never had", () => {
    const stored = machine(5);
    expect(matchScore(stored, stored.slice(0, 3))).toBe(0.6);
    expect(matchScore(stored, [...stored, { kind: "new-kind", hash: hash(99) }])).toBe(1);
    expect(matchScore(stored.slice(0, 3), stored)).toBe(1);
  });

  it("compares by kind, not by position", () => {
    const stored = machine(4);
    expect(matchScore(stored, [...stored].reverse())).toBe(1);
    // The same hash under another kind is not a match.
    expect(matchScore([{ kind: "disk", hash: hash(1) }], [{ kind: "mac", hash: hash(1) }])).toBe(0);
  });

  it("is 0 when either side has no components", () => {
    expect(matchScore(null, machine(3))).toBe(0);
    expect(matchScore([], machine(3))).toBe(0);
    expect(matchScore(machine(3), null)).toBe(0);
    expect(matchScore(machine(3), [])).toBe(0);
  });
});

// [mode, stored kinds, changed kinds, heals]
const boundaries = [
  ["fuzzy", 5, 2, true], // exactly 0.6
  ["fuzzy", 10, 4, true], // 0.6 again, from other integers
  ["fuzzy", 15, 6, true],
  ["fuzzy", 16, 7, false], // 9/16 = 0.5625, just below
  ["fuzzy", 7, 3, false], // 4/7 ≈ 0.571
  ["fuzzy", 5, 3, false], // 0.4
  ["strict", 5, 1, true], // exactly 0.8
  ["strict", 10, 2, true],
  ["strict", 16, 4, false], // 0.75, just below
  ["strict", 5, 2, false],
  ["loose", 5, 3, true], // exactly 0.4
  ["loose", 10, 6, true],
  ["loose", 16, 10, false], // 0.375, just below
  ["loose", 5, 4, false],
  ["exact", 5, 0, false], // exact: components never decide, not even all equal
  ["exact", 5, 1, false],
] as const;

describe("reachesThreshold: the boundaries", () => {
  it.each(boundaries)("%s, %i stored, %i changed → %s", (mode, stored, changed, heals) => {
    const components = machine(stored);
    expect(reachesThreshold(mode, matchScore(components, drifted(components, changed)))).toBe(heals);
  });
});

describe("reachesThresholdSql: the same rule in the database", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.dispose());

  const inSql = async (
    mode: string,
    stored: FingerprintComponent[],
    presented: FingerprintComponent[] | null,
  ) => {
    const [row] = rowsOf<{ heals: boolean | null }>(
      await database.db.execute(
        sql`select ${reachesThresholdSql(
          sql`${mode}::text`,
          sql`${encodeComponents(stored)}::text[]`,
          presented ? sql`${encodeComponents(presented)}::text[]` : sql`null::text[]`,
        )} as heals`,
      ),
    );
    return row!.heals === true;
  };

  it.each(boundaries)("%s, %i stored, %i changed → %s", async (mode, stored, changed, heals) => {
    const components = machine(stored);
    expect(await inSql(mode, components, drifted(components, changed))).toBe(heals);
  });

  it("agrees with matchScore on missing, extra and reordered kinds and on empty sides", async () => {
    const stored = machine(5);
    const cases: [FingerprintComponent[], FingerprintComponent[] | null][] = [
      [stored, stored.slice(0, 3)], // 0.6: a missing kind counts as changed
      [stored, stored.slice(0, 2)], // 0.4
      [stored, [...stored, { kind: "new-kind", hash: hash(99) }]],
      [stored.slice(0, 3), stored],
      [stored, [...stored].reverse()],
      [[{ kind: "disk", hash: hash(1) }], [{ kind: "mac", hash: hash(1) }]],
      [[], stored],
      [stored, null],
    ];
    for (const mode of ["exact", "strict", "fuzzy", "loose"] as const) {
      for (const [a, b] of cases) {
        expect(await inSql(mode, a, b), `${mode} ${JSON.stringify([a, b])}`).toBe(
          reachesThreshold(mode, matchScore(a, b)),
        );
      }
    }
  });
});

describe("isSameMachine", () => {
  const known = { hwFingerprint: "fp-1", components: machine(5) };
  it("is the same fingerprint, whatever the components and the mode", () => {
    for (const mode of ["exact", "strict", "fuzzy", "loose"] as const)
      expect(isSameMachine(mode, known, { hwFingerprint: "fp-1", components: null })).toBe(true);
  });
  it("is components at the threshold, except under exact", () => {
    const request = { hwFingerprint: "fp-2", components: drifted(machine(5), 2) };
    expect(isSameMachine("fuzzy", known, request)).toBe(true);
    expect(isSameMachine("strict", known, request)).toBe(false);
    expect(isSameMachine("exact", known, { ...request, components: machine(5) })).toBe(false);
  });
  it("never matches two machines without fingerprints by their missing fingerprints", () => {
    expect(
      isSameMachine(
        "fuzzy",
        { hwFingerprint: null, components: null },
        { hwFingerprint: null, components: null },
      ),
    ).toBe(false);
  });
});
