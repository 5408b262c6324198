import { eq, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { ActivateRequest, ActivateResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { seatLimit } from "../licenses/config.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { publishEvents } from "../outbox/publish.ts";
import { checkBinding } from "./binding.ts";
import { LatencyMirror } from "./latency-mirror.ts";
import { issueMarker } from "./marker.ts";

const latency = new LatencyMirror(5);

/**
 * POST /client/activate (spec §4): binding check, then seat check under the license's row lock, so
 * concurrent activations can neither exceed the seats nor pin two machines. A known machine reuses its
 * activation and takes no second seat.
 */
export async function activate(
  deps: Deps,
  input: ActivateRequest,
  request: RequestInfo,
): Promise<ActivateResponse> {
  const startedAt = performance.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const fingerprint = input.hwFingerprint;
  const activated = await deps.db.transaction(async (tx) => {
    const [license] = licenseKey
      ? await tx
          .select()
          .from(tables.licenses)
          .where(eq(tables.licenses.licenseKey, licenseKey))
          .for("update")
      : [];
    if (!license) return null;
    const now = deps.clock.now();
    if (effectiveStatus(license, now) !== "Active") {
      fail("license.not_active", `The license is ${effectiveStatus(license, now)}`);
    }
    const { pin } = checkBinding(license, fingerprint);

    const a = tables.activations;
    const [live] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        sameMachine: sql<
          string | null
        >`(array_agg(${a.id}) filter (where ${a.hwFingerprint} = ${fingerprint ?? null}))[1]`,
      })
      .from(a)
      .where(sql`${a.licenseId} = ${license.id} and ${a.status} = 'active'`);
    if (fingerprint && live?.sameMachine) return { license, activationId: live.sameMachine, reused: true };

    const seats = seatLimit(JSON.parse(license.config));
    if (seats !== null && (live?.count ?? 0) >= seats) {
      fail("activation.seat_limit_reached", `All ${seats} seats of the license are in use`);
    }
    const [created] = await tx
      .insert(a)
      .values({
        licenseId: license.id,
        hwFingerprint: fingerprint ?? null,
        machineName: input.machineName ?? null,
        status: "active",
        activatedAt: now,
        clientIp: request.ip,
      })
      .returning({ id: a.id });
    const activationId = created!.id;
    if (pin || !license.activatedAt) {
      await tx
        .update(tables.licenses)
        .set({
          ...(pin ? { hwFingerprint: fingerprint!, updatedAt: now } : {}),
          ...(license.activatedAt ? {} : { activatedAt: now }),
        })
        .where(eq(tables.licenses.id, license.id));
    }
    const data = {
      licenseId: license.id,
      licenseKey: license.licenseKey,
      activationId,
      hwFingerprint: fingerprint ?? null,
      machineName: input.machineName ?? null,
      clientIp: request.ip,
    };
    await publishEvents(tx, deps.clock, [{ type: "license.activated", data }]);
    await recordAudit(tx, deps.clock, {
      action: "license.activated",
      actorEmail: null,
      entityType: "activation",
      entityId: activationId,
      meta: {
        licenseId: license.id,
        hwFingerprint: data.hwFingerprint,
        machineName: data.machineName,
        pinned: pin,
      },
      request,
    });
    return { license, activationId, reused: false };
  });

  if (!activated) {
    await latency.padFailure(startedAt);
    return fail("license.not_found", "No license with this key");
  }
  const { license, activationId } = activated;
  const heartbeatToken = await issueMarker(deps, deps.db, {
    licenseId: license.id,
    activationId,
    hwFingerprint: fingerprint ?? null,
    offlineDays: license.offlineDays,
    signingKeyId: license.signingKeyId,
  });
  latency.recordSuccess(startedAt);
  return {
    activationId,
    heartbeatToken,
    heartbeatIntervalSeconds: deps.config.licensing.heartbeatIntervalSeconds,
    maxOfflineDays: license.offlineDays,
  };
}
