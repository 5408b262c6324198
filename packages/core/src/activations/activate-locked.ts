import { randomUUID } from "node:crypto";
import { and, eq, gte, or, sql } from "drizzle-orm";
import { encodeComponents, tables, type ActivationRow, type LicenseRow, type Tx } from "@licensing/db";
import type { FingerprintComponent } from "@licensing/contracts";
import { recordAudit, type AuditActor } from "../audit/record.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { publishEvents } from "../outbox/publish.ts";
import { refuseNotLive } from "../revocations/refusal.ts";
import type { Activated, MachineRequest } from "./activate.ts";
import { checkBinding } from "./binding.ts";
import { countedNewDevices, knownSince, leavesWindowAt } from "./device-budget.ts";
import { isSameMachine, matchScore, reachesThreshold, reachesThresholdSql } from "./fingerprint-match.ts";
import { machinesFull, refuseMachine } from "./machines.ts";

type Known = Pick<ActivationRow, "id" | "status" | "hwFingerprint" | "components" | "deactivatedAt">;

type Outcome = { activated: Activated } | { budgetRefused: { retryAt: Date; used: number; max: number } };

/** An activation the panel makes from a request the machine carried (decision 0050). */
export interface OfflineActivation {
  nonce: string;
  /** The panel user who answered the request: the audit rows name them. */
  actor: AuditActor;
  /** The certificate's expiry, for the audit row. */
  expiresAt: Date;
  /** When the machine says it made the request (its own clock), for the audit row. */
  requestedAt: Date;
}

/**
 * Activation under the license row's lock, for what the one statement leaves to TypeScript: a machine
 * whose components may heal one of the license's activations (decision 0046), and a license with a
 * device budget (decision 0047). Holding the lock that every seat change takes (decision 0007), a heal
 * and a concurrent activation of the same machine are serialised: the second finds the healed
 * activation by its new fingerprint and reuses it, so one machine never holds two, and a heal moves no
 * seat. In order: the license is live; the same fingerprint reuses its activation; components at the
 * threshold against exactly one live activation heal it; the binding admits; a new device fits the
 * budget; a seat is free.
 */
export async function activateLocked(
  deps: Deps,
  machine: MachineRequest,
  request: RequestInfo,
  offline?: OfflineActivation,
): Promise<Activated | null> {
  const auditActor = offline?.actor ?? { email: null, request };
  const outcome = await deps.db.transaction(async (tx): Promise<Outcome | null> => {
    const l = tables.licenses;
    const [license] = await tx.select().from(l).where(eq(l.licenseKey, machine.licenseKey)).for("update");
    if (!license) return null;
    const now = deps.clock.now();
    if (effectiveStatus(license, now) !== "Active") await refuseNotLive(deps, tx, license);

    const a = tables.activations;
    const known = await knownMachines(tx, license, machine, now);
    const live = known.filter((k) => k.status === "active");

    const same =
      machine.hwFingerprint !== null && live.find((k) => k.hwFingerprint === machine.hwFingerprint);
    if (same) {
      checkBinding(license, machine.hwFingerprint ?? undefined);
      if (machine.components && JSON.stringify(same.components) !== JSON.stringify(machine.components)) {
        await tx.update(a).set({ components: machine.components }).where(eq(a.id, same.id));
      }
      return {
        activated: await heldOffline(tx, deps, { license, activationId: same.id, healed: false }, offline),
      };
    }

    const heal = healCandidates(license, live, machine);
    if (heal.length === 1) {
      const healed = await healActivation(tx, deps, license, heal[0]!, machine, auditActor);
      return { activated: await heldOffline(tx, deps, healed, offline) };
    }

    const { pin } = checkBinding(license, machine.hwFingerprint ?? undefined);
    const newDevice = !known.some((k) => isSameMachine(license.fingerprintMatch, k, machine));
    const max = license.maxNewDevicesPerWindow;
    if (newDevice && max !== null) {
      const counted = (await countedNewDevices(tx, [license.id], now)).get(license.id);
      if (counted && counted.used >= max) {
        const retryAt = leavesWindowAt(license, counted.oldest);
        await reportExhausted(tx, deps, license, retryAt, now);
        return { budgetRefused: { retryAt, used: counted.used, max } };
      }
    }
    if (machinesFull(license)) await refuseMachine(tx, license);

    const activationId = randomUUID();
    await tx.insert(a).values({
      id: activationId,
      licenseId: license.id,
      companyId: license.companyId,
      templateId: license.templateId,
      hwFingerprint: machine.hwFingerprint,
      components: machine.components,
      newDevice,
      machineName: machine.machineName,
      status: "active",
      activatedAt: now,
      clientIp: request.ip,
    });
    await tx
      .update(l)
      .set({
        liveSeats: sql`${l.liveSeats} + 1`,
        activatedAt: license.activatedAt ?? now,
        ...(pin ? { hwFingerprint: machine.hwFingerprint, updatedAt: now } : {}),
      })
      .where(eq(l.id, license.id));
    await publishEvents(tx, deps.clock, [
      {
        type: "license.activated",
        data: {
          licenseId: license.id,
          licenseKey: license.licenseKey,
          activationId,
          hwFingerprint: machine.hwFingerprint,
          machineName: machine.machineName,
          clientIp: request.ip,
          mode: offline ? "offline" : "online",
        },
      },
    ]);
    await recordAudit(tx, deps.clock, auditActor, {
      action: "license.activated",
      entityType: "activation",
      entityId: activationId,
      meta: {
        hwFingerprint: machine.hwFingerprint,
        machineName: machine.machineName,
        components: machine.components?.map((c) => c.kind),
        licenseId: license.id,
        pinned: pin,
        newDevice,
        ...(offline ? { mode: "offline" } : {}),
        // Several machines matched at the threshold: healing one of them would be a guess.
        ...(heal.length > 1
          ? {
              healSkipped: "several live activations match the components",
              healCandidates: heal.map((k) => k.id),
            }
          : {}),
      },
    });
    return { activated: await heldOffline(tx, deps, { license, activationId, healed: false }, offline) };
  });
  if (outcome && "budgetRefused" in outcome) {
    const { retryAt, used, max } = outcome.budgetRefused;
    const seconds = Math.max(1, Math.ceil((retryAt.getTime() - deps.clock.now().getTime()) / 1000));
    return fail(
      "activation.device_budget_exhausted",
      `${used} of ${max} new devices were activated on this license within its window; the next may activate from ${retryAt.toISOString()}`,
      { retryAfterSeconds: seconds, details: { retryAt: retryAt.toISOString() } },
    );
  }
  return outcome?.activated ?? null;
}

/**
 * The license's activations live in the last 90 days that the request is: the same fingerprint, or
 * components at the license's threshold (scored in the query, so a fleet's look-alikes are not read).
 */
async function knownMachines(
  tx: Tx,
  license: LicenseRow,
  machine: MachineRequest,
  now: Date,
): Promise<Known[]> {
  const a = tables.activations;
  const same = [
    ...(machine.hwFingerprint !== null ? [eq(a.hwFingerprint, machine.hwFingerprint)] : []),
    ...(machine.components && license.fingerprintMatch !== "exact"
      ? [
          reachesThresholdSql(
            sql`${license.fingerprintMatch}::text`,
            sql`${a.components}`,
            sql`${encodeComponents(machine.components)}::text[]`,
          ),
        ]
      : []),
  ];
  if (same.length === 0) return [];
  return tx
    .select({
      id: a.id,
      status: a.status,
      hwFingerprint: a.hwFingerprint,
      components: a.components,
      deactivatedAt: a.deactivatedAt,
    })
    .from(a)
    .where(
      and(
        eq(a.licenseId, license.id),
        or(...same),
        or(eq(a.status, "active"), gte(a.deactivatedAt, knownSince(now))),
      ),
    );
}

/** The live activations the request's components match at the license's threshold. */
function healCandidates(license: LicenseRow, live: Known[], machine: MachineRequest): Known[] {
  // Without a fingerprint a machine is never recognised again (behaviour.md), so it heals nothing either.
  if (machine.hwFingerprint === null || machine.components === null) return [];
  return live.filter((k) =>
    reachesThreshold(license.fingerprintMatch, matchScore(k.components, machine.components)),
  );
}

/**
 * Gives the machine's activation its new fingerprint and components: no seat moves. A license bound to
 * the machine's old fingerprint is bound to the new one. Audited with both fingerprints and published.
 */
async function healActivation(
  tx: Tx,
  deps: Deps,
  license: LicenseRow,
  activation: Known,
  machine: MachineRequest,
  actor: AuditActor,
): Promise<Activated> {
  const now = deps.clock.now();
  const follows = license.hwBinding !== "none" && license.hwFingerprint === activation.hwFingerprint;
  checkBinding(
    { hwBinding: license.hwBinding, hwFingerprint: follows ? machine.hwFingerprint : license.hwFingerprint },
    machine.hwFingerprint ?? undefined,
  );
  if (follows) {
    await tx
      .update(tables.licenses)
      .set({ hwFingerprint: machine.hwFingerprint, updatedAt: now })
      .where(eq(tables.licenses.id, license.id));
  }
  await tx
    .update(tables.activations)
    .set({
      hwFingerprint: machine.hwFingerprint,
      components: machine.components,
      ...(machine.machineName !== null ? { machineName: machine.machineName } : {}),
    })
    .where(eq(tables.activations.id, activation.id));
  const score = matchScore(activation.components, machine.components);
  await publishEvents(tx, deps.clock, [
    {
      type: "license.activation_healed",
      data: { licenseId: license.id, activationId: activation.id, score },
    },
  ]);
  await recordAudit(tx, deps.clock, actor, {
    action: "activation.healed",
    entityType: "activation",
    entityId: activation.id,
    meta: {
      licenseId: license.id,
      oldFingerprint: activation.hwFingerprint,
      newFingerprint: machine.hwFingerprint,
      score,
      changedKinds: changedKinds(activation.components, machine.components),
      bindingFollowed: follows,
    },
  });
  return { license, activationId: activation.id, healed: true };
}

/** The stored kinds whose hash the request does not repeat (changed or missing). */
function changedKinds(stored: FingerprintComponent[] | null, presented: FingerprintComponent[] | null) {
  const hashes = new Map((presented ?? []).map((c) => [c.kind, c.hash]));
  return (stored ?? []).filter((c) => hashes.get(c.kind) !== c.hash).map((c) => c.kind);
}

/**
 * Publishes `license.device_budget_exhausted` for the first refusal of an exhausted window only: the
 * license remembers the retryAt it announced, and stays quiet until that time has come (or a reset).
 */
async function reportExhausted(tx: Tx, deps: Deps, license: LicenseRow, retryAt: Date, now: Date) {
  if (license.deviceBudgetRefusedUntil !== null && license.deviceBudgetRefusedUntil > now) return;
  await tx
    .update(tables.licenses)
    .set({ deviceBudgetRefusedUntil: retryAt })
    .where(eq(tables.licenses.id, license.id));
  await publishEvents(tx, deps.clock, [
    {
      type: "license.device_budget_exhausted",
      data: { licenseId: license.id, retryAt: retryAt.toISOString() },
    },
  ]);
}

/**
 * An offline activation holds the certificate of its request (decision 0050): the activation is marked
 * `offline` with the request's nonce (a receipt must name it), and the nonce is recorded so that the same
 * request is answered with the same activation and an old one is refused. A second answer to the same
 * request racing this one breaks the nonce's primary key and is retried as that replay. Audited with the
 * certificate's expiry.
 */
async function heldOffline(
  tx: Tx,
  deps: Deps,
  activated: Activated,
  offline: OfflineActivation | undefined,
): Promise<Activated> {
  const { activationId, license } = activated;
  if (!offline) {
    // Online now: a receipt of its old certificate no longer frees the seat (decision 0050).
    await tx
      .update(tables.activations)
      .set({ mode: "online", offlineNonce: null })
      .where(and(eq(tables.activations.id, activationId), eq(tables.activations.mode, "offline")));
    return activated;
  }
  await tx
    .update(tables.activations)
    .set({ mode: "offline", offlineNonce: offline.nonce })
    .where(eq(tables.activations.id, activationId));
  await tx.insert(tables.offlineRequests).values({
    licenseId: license.id,
    nonce: offline.nonce,
    activationId,
    createdAt: deps.clock.now(),
  });
  await recordAudit(tx, deps.clock, offline.actor, {
    action: "activation.offline_certificate",
    entityType: "activation",
    entityId: activationId,
    meta: {
      licenseId: license.id,
      nonce: offline.nonce,
      expiresAt: offline.expiresAt.toISOString(),
      requestedAt: offline.requestedAt.toISOString(),
    },
  });
  return activated;
}
