import { and, eq, sql } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import type { ActivationRequest, HeartbeatResponse } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { LatencyMirror } from "./latency-mirror.ts";
import { issueMarker } from "./marker.ts";

const latency = new LatencyMirror(2);

interface Touched {
  license_id: string;
  activation_id: string;
  hw_fingerprint: string | null;
  offline_days: number;
  signing_key_id: string;
}

/**
 * POST /client/heartbeat (the HMAC is checked by the caller): one statement, so one database round
 * trip, that checks the license and activation, records the heartbeat, ends a reported silence and
 * moves both lastHeartbeatAt forward. Only when it matches nothing does a second query say why.
 */
export async function heartbeat(deps: Deps, input: ActivationRequest): Promise<HeartbeatResponse> {
  const startedAt = performance.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const now = deps.clock.now().toISOString();
  const result = licenseKey
    ? ((await deps.db.execute(sql`
        with touched as (
          update activations a
             set last_heartbeat_at = ${now}::timestamptz, silence_reported_at = null
            from licenses l
           where a.id = ${input.activationId}::uuid
             and a.status = 'active'
             and l.id = a.license_id
             and l.license_key = ${licenseKey}
             and l.status = 'Active'
             and l.expires_at > ${now}::timestamptz
          returning l.id as license_id, a.id as activation_id, a.hw_fingerprint, l.offline_days, l.signing_key_id
        ), recorded as (
          insert into heartbeat_records (activation_id, license_id, occurred_at)
          select activation_id, license_id, ${now}::timestamptz from touched
        ), license_seen as (
          update licenses set last_heartbeat_at = ${now}::timestamptz
           where id = (select license_id from touched)
        )
        select * from touched`)) as unknown as { rows: Touched[] })
    : { rows: [] };

  const touched = result.rows[0];
  if (!touched) {
    await explainMiss(deps, deps.db, licenseKey, input.activationId, startedAt);
    return fail("activation.not_found", "The activation is unknown or deactivated");
  }
  const heartbeatToken = await issueMarker(deps, deps.db, {
    licenseId: touched.license_id,
    activationId: touched.activation_id,
    hwFingerprint: touched.hw_fingerprint,
    offlineDays: touched.offline_days,
    signingKeyId: touched.signing_key_id,
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
