import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { tables, writeInOneRoundTrip } from "@licensing/db";
import type { ActivateRequest, ActivateResponse } from "@licensing/contracts";
import { auditInsert } from "../audit/record.ts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { seatLimit } from "../licenses/config.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { eventsInsert } from "../outbox/publish.ts";
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
    // Named (prepared) statements: the database plans them once per connection, not per activation.
    const [license] = licenseKey
      ? await tx
          .select()
          .from(tables.licenses)
          .where(eq(tables.licenses.licenseKey, sql.placeholder("licenseKey")))
          .for("update")
          .prepare("activate_lock_license")
          .execute({ licenseKey })
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
        >`(array_agg(${a.id}) filter (where ${a.hwFingerprint} = ${sql.placeholder("fingerprint")}))[1]`,
      })
      .from(a)
      .where(sql`${a.licenseId} = ${sql.placeholder("licenseId")} and ${a.status} = 'active'`)
      .prepare("activate_live_seats")
      .execute({ licenseId: license.id, fingerprint: fingerprint ?? null });
    if (fingerprint && live?.sameMachine) return { license, activationId: live.sameMachine, reused: true };

    const seats = seatLimit(JSON.parse(license.config));
    if (seats !== null && (live?.count ?? 0) >= seats) {
      fail("activation.seat_limit_reached", `All ${seats} seats of the license are in use`);
    }
    // The id is made here so the activation, the license update, the event and the audit row can be
    // written together in one round trip.
    const activationId = randomUUID();
    const data = {
      licenseId: license.id,
      licenseKey: license.licenseKey,
      activationId,
      hwFingerprint: fingerprint ?? null,
      machineName: input.machineName ?? null,
      clientIp: request.ip,
    };
    const licenseChanges = {
      ...(pin ? { hwFingerprint: fingerprint!, updatedAt: now } : {}),
      ...(license.activatedAt ? {} : { activatedAt: now }),
    };
    await writeInOneRoundTrip(tx, [
      tx.insert(a).values({
        id: activationId,
        licenseId: license.id,
        hwFingerprint: data.hwFingerprint,
        machineName: data.machineName,
        status: "active",
        activatedAt: now,
        clientIp: request.ip,
      }),
      ...(Object.keys(licenseChanges).length > 0
        ? [tx.update(tables.licenses).set(licenseChanges).where(eq(tables.licenses.id, license.id))]
        : []),
      eventsInsert(tx, deps.clock, [{ type: "license.activated", data }]),
      auditInsert(tx, deps.clock, {
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
      }),
    ]);
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
