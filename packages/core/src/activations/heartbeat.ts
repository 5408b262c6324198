import { and, eq, sql } from "drizzle-orm";
import { tables, type Db, type Executor } from "@licensing/db";
import type { ActivationRequest, HeartbeatResponse } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { LatencyMirror } from "./latency-mirror.ts";
import { issueMarker } from "./marker.ts";

const latency = new LatencyMirror(2);

// The statement is prepared once per database (and per pooled connection by the driver): parsing and
// planning it on every heartbeat would cost the database twice the work of running it.
const statements = new WeakMap<Db, ReturnType<typeof prepareHeartbeat>>();
const heartbeatStatement = (db: Db) =>
  statements.get(db) ?? statements.set(db, prepareHeartbeat(db)).get(db)!;

function prepareHeartbeat(db: Db) {
  const now = sql`${sql.placeholder("now")}::timestamptz`;
  const touched = db
    .$with("touched", {
      licenseId: sql<string>`license_id`.as("license_id"),
      activationId: sql<string>`activation_id`.as("activation_id"),
      hwFingerprint: sql<string | null>`hw_fingerprint`.as("hw_fingerprint"),
      offlineDays: sql<number>`offline_days`.as("offline_days"),
      signingKeyId: sql<string>`signing_key_id`.as("signing_key_id"),
    })
    .as(
      sql`update activations a
             set last_heartbeat_at = ${now}, silence_reported_at = null
            from licenses l
           where a.id = ${sql.placeholder("activationId")}::uuid
             and a.status = 'active'
             and l.id = a.license_id
             and l.license_key = ${sql.placeholder("licenseKey")}
             and l.status = 'Active'
             and l.expires_at > ${now}
          returning l.id as license_id, a.id as activation_id, a.hw_fingerprint, l.offline_days, l.signing_key_id`,
    );
  const recorded = db.$with("recorded", {}).as(
    sql`insert into heartbeat_records (activation_id, license_id, occurred_at)
          select activation_id, license_id, ${now} from touched`,
  );
  const licenseSeen = db.$with("license_seen", {}).as(
    sql`update licenses set last_heartbeat_at = ${now}
           where id = (select license_id from touched)
             and (last_heartbeat_at is null or last_heartbeat_at < ${now} - interval '1 minute')`,
  );
  return db.with(touched, recorded, licenseSeen).select().from(touched).prepare("client_heartbeat");
}

/**
 * POST /client/heartbeat (the HMAC is checked by the caller): one statement, so one database round
 * trip, that checks the license and activation, records the heartbeat, ends a reported silence and
 * moves both lastHeartbeatAt forward: the activation's exactly, the license's at most once a minute
 * (a write to the license row, with its many indexes, on every beat of every seat is the costliest part).
 * Only when it matches nothing does a second query say why.
 */
export async function heartbeat(deps: Deps, input: ActivationRequest): Promise<HeartbeatResponse> {
  const startedAt = performance.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const touched = licenseKey
    ? (
        await heartbeatStatement(deps.telemetryDb).execute({
          now: deps.clock.now().toISOString(),
          activationId: input.activationId,
          licenseKey,
        })
      )[0]
    : undefined;
  if (!touched) {
    await explainMiss(deps, deps.db, licenseKey, input.activationId, startedAt);
    return fail("activation.not_found", "The activation is unknown or deactivated");
  }
  const heartbeatToken = await issueMarker(deps, deps.db, {
    licenseId: touched.licenseId,
    activationId: touched.activationId,
    hwFingerprint: touched.hwFingerprint,
    offlineDays: touched.offlineDays,
    signingKeyId: touched.signingKeyId,
  });
  latency.recordSuccess(startedAt);
  return { heartbeatToken };
}

/** Why a heartbeat matched nothing: the error path, so its extra query costs nothing on the hot path. */
async function explainMiss(
  deps: Deps,
  executor: Executor,
  licenseKey: string | null,
  activationId: string,
  startedAt: number,
) {
  const [license] = licenseKey
    ? await executor.select().from(tables.licenses).where(eq(tables.licenses.licenseKey, licenseKey))
    : [];
  if (!license) {
    await latency.padFailure(startedAt);
    fail("license.not_found", "No license with this key");
  }
  const status = effectiveStatus(license!, deps.clock.now());
  if (status !== "Active") fail("license.not_active", `The license is ${status}`);
  const [activation] = await executor
    .select({ status: tables.activations.status })
    .from(tables.activations)
    .where(and(eq(tables.activations.id, activationId), eq(tables.activations.licenseId, license!.id)));
  if (activation?.status === "deactivated") {
    fail("activation.not_found", "The activation was deactivated; activate again");
  }
}
