import { sql, type SQL } from "drizzle-orm";
import type { FingerprintComponent, FingerprintMatch } from "@licensing/contracts";
import { MATCH_THRESHOLDS } from "@licensing/protocol";

/**
 * The one home of the matching rule (decision 0046): how much of a stored machine a request's fingerprint
 * components show, and whether that is enough under the license's `fingerprintMatch`.
 */

/**
 * The kinds whose hash is equal in both, over the kinds the stored activation has: a component the stored
 * machine never had neither helps nor hurts, one it had and the request lacks counts as changed. 0 when
 * the stored activation has no components.
 */
export function matchScore(
  stored: readonly FingerprintComponent[] | null,
  presented: readonly FingerprintComponent[] | null,
): number {
  if (!stored?.length || !presented?.length) return 0;
  const hashes = new Map(presented.map((c) => [c.kind, c.hash]));
  const equal = stored.filter((c) => hashes.get(c.kind) === c.hash).length;
  return equal / stored.length;
}

/** Whether `score` recognises the machine under `mode`; under `exact` components never do. */
export function reachesThreshold(mode: FingerprintMatch, score: number): boolean {
  if (mode === "exact") return false;
  // Division rounds correctly, so 3/5, 6/10 and 9/15 are the same double as the literal 0.6: the
  // boundary needs no tolerance (fingerprint-match.test.ts holds it).
  return score >= MATCH_THRESHOLDS[mode];
}

/**
 * `reachesThreshold(mode, matchScore(stored, presented))` in SQL, for `stored` a `text[]` column of
 * `kind:hash` and `presented` the request's in the same form: equal elements are equal kinds with equal
 * hashes, since kinds are unique within each. Lets a statement skip every machine that shares a hash or
 * two without being recognisable (a fleet's CPU model and OS), instead of reading them out to score here.
 * The counts are whole numbers, so float8 division rounds as JavaScript's does and the boundaries agree
 * (`fingerprint-match.test.ts` runs both sides on the same cases).
 */
export function reachesThresholdSql(mode: SQL, stored: SQL, presented: SQL): SQL {
  const threshold = sql.join(
    Object.entries(MATCH_THRESHOLDS).map(
      ([name, value]) => sql`when ${sql.raw(`'${name}'`)} then ${sql.raw(`${value}::float8`)}`,
    ),
    sql` `,
  );
  return sql`(cardinality(${stored}) > 0 and ${stored} && ${presented}
    and (select count(*) from unnest(${stored}) as s(c) where s.c = any(${presented}))::float8
        / cardinality(${stored}) >= (case ${mode} ${threshold} else null end))`;
}

/** One of a license's machines as matching sees it. */
export interface KnownMachine {
  hwFingerprint: string | null;
  components: readonly FingerprintComponent[] | null;
}

/**
 * Whether a request shows the machine `known`: the same fingerprint, or (unless `exact`) components at
 * the threshold. A request without a fingerprint matches by components only.
 */
export function isSameMachine(
  mode: FingerprintMatch,
  known: KnownMachine,
  request: { hwFingerprint: string | null; components: readonly FingerprintComponent[] | null },
): boolean {
  if (request.hwFingerprint !== null && known.hwFingerprint === request.hwFingerprint) return true;
  return reachesThreshold(mode, matchScore(known.components, request.components));
}
