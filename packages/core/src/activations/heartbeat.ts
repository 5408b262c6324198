import { and, eq } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import type { ActivationRequest, HeartbeatResponse } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { refuseNotLive } from "../revocations/refusal.ts";
import { issueMarker } from "./marker.ts";

/**
 * POST /client/heartbeat (the HMAC is checked by the caller): one statement, shared with the heartbeats
 * that arrive at the same time, checks the license and activation and records the beat (HeartbeatWriter).
 * Only when it matches nothing does a second query say why.
 */
export async function heartbeat(deps: Deps, input: ActivationRequest): Promise<HeartbeatResponse> {
  const startedAt = deps.activations.heartbeatLatency.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const beat = licenseKey
    ? await deps.activations.heartbeats.beat(input.activationId, licenseKey)
    : undefined;
  if (!beat) {
    await explainMiss(deps, deps.db, licenseKey, input.activationId, startedAt);
    return fail("activation.not_found", "The activation is unknown or deactivated");
  }
  const marker = await issueMarker(deps, deps.db, beat);
  deps.activations.heartbeatLatency.recordSuccess(startedAt);
  return marker;
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
    await deps.activations.heartbeatLatency.padFailure(startedAt);
    fail("license.not_found", "No license with this key");
  }
  if (effectiveStatus(license!, deps.clock.now()) !== "Active") await refuseNotLive(deps, executor, license!);
  const [activation] = await executor
    .select({ status: tables.activations.status })
    .from(tables.activations)
    .where(and(eq(tables.activations.id, activationId), eq(tables.activations.licenseId, license!.id)));
  if (activation?.status === "deactivated") {
    fail("activation.not_found", "The activation was deactivated; activate again");
  }
}
