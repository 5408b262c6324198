import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { encodeComponents, isDeadlock, isUniqueViolation, tables, type Db } from "@licensing/db";
import type {
  ActivateRequest,
  ActivateResponse,
  EventData,
  FingerprintComponent,
} from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { liveSql } from "../licenses/live.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { refuseNotLive } from "../revocations/refusal.ts";
import { activateLocked } from "./activate-locked.ts";
import { bindingAdmitsSql, checkBinding } from "./binding.ts";
import { knownSince, liveSinceSql } from "./device-budget.ts";
import { reachesThresholdSql } from "./fingerprint-match.ts";
import { machinesFull, refuseMachine } from "./machines.ts";
import { issueMarker, licenseKeyFacts, type LicenseKeyFacts } from "./marker.ts";

/**
 * The whole activation as one statement, so one round trip that commits on its own:
 * - `license` and `reused` read the license and the machine's live activation as of the statement's start;
 * - `claimed` takes a seat: an UPDATE of the license row that only matches while the license is Active,
 *   the binding admits the fingerprint and a seat is free (on a floating license, room under
 *   `limits.maxMachines`: its seats are leases, decision 0048). An UPDATE re-checks its conditions on the newest
 *   row version after waiting for a concurrent writer's lock, so the seat count and the pin cannot race.
 *   It pins a firstActivation license and stamps the first activation;
 * - the activation, its `license.activated` event and audit row are written only when a seat was taken;
 * - it takes nothing when the license has a device budget, or when the request's components match one
 *   of the license's machines live in the last 90 days at the license's threshold (decision 0046):
 *   `activateLocked` decides those under the lock. Otherwise the machine can be known only by its
 *   fingerprint, and `new_device` is decided here in SQL.
 * When two activations of one new machine race, the loser breaks the one-live-activation-per-machine
 * index, the statement undoes itself, and running it again finds the winner's activation to reuse.
 */
export function prepareActivation(db: Db) {
  const l = tables.licenses;
  const sk = tables.signingKeys;
  const p = sql.placeholder;
  const now = sql`${p("now")}::timestamptz`;
  const fingerprint = sql`${p("fingerprint")}::text`;
  const activationId = sql`${p("activationId")}::uuid`;
  const clientIp = sql`${p("clientIp")}::text`;
  const components = sql`${p("components")}::text[]`;
  const knownSinceAt = sql`${p("knownSince")}::timestamptz`;

  const license = db.$with("license").as(
    db
      .select({
        id: l.id,
        status: l.status,
        expiresAt: l.expiresAt,
        hwBinding: l.hwBinding,
        hwFingerprint: l.hwFingerprint,
        seatModel: l.seatModel,
        machineLimit: l.machineLimit,
        liveSeats: l.liveSeats,
        offlineDays: l.offlineDays,
        signingKeyId: l.signingKeyId,
        fingerprintMatch: l.fingerprintMatch,
        maxNewDevicesPerWindow: l.maxNewDevicesPerWindow,
        templateId: l.templateId,
        revocation: l.revocation,
        revokedAt: l.revokedAt,
        // Aliased: the license has a status and a template of its own in this CTE.
        keyTemplateId: sql<string>`${sk.templateId}`.as("key_template_id"),
        keyStatus: sql<LicenseKeyFacts["status"]>`${sk.status}`.as("key_status"),
        keyIsRoot: sql<boolean>`${sk.isRoot}`.as("key_is_root"),
        keyCertificate: sql<string | null>`${sk.certificate}`.as("key_certificate"),
      })
      .from(l)
      .innerJoin(sk, eq(sk.id, l.signingKeyId))
      .where(eq(l.licenseKey, p("licenseKey"))),
  );
  const reused = db.$with("reused", { id: sql<string>`id`.as("id") }).as(
    sql`select a.id from activations a, license
         where a.license_id = license.id and a.status = 'active' and a.hw_fingerprint = ${fingerprint}`,
  );
  // A machine that sent components keeps its stored ones current, so a later drift is measured against
  // what the machine last was. A machine activated offline that now activates online is online from now
  // on: its offline certificate's receipt no longer frees the seat (decision 0050). Only the activation
  // row is written: no seat, no event.
  const refreshed = db.$with("refreshed", {}).as(
    sql`update activations a set components = coalesce(${components}, a.components), mode = 'online',
                                 offline_nonce = null
         where a.id = (select id from reused limit 1)
           and ((${components} is not null and a.components is distinct from ${components})
                or a.mode = 'offline')`,
  );
  const claimed = db.$with("claimed", { id: sql<string>`id`.as("id") }).as(
    sql`update licenses l
           set live_seats = l.live_seats + 1,
               hw_fingerprint = case when l.hw_binding = 'firstActivation' then ${fingerprint} else l.hw_fingerprint end,
               updated_at = case when l.hw_binding = 'firstActivation' and l.hw_fingerprint is null
                                 then ${now} else l.updated_at end,
               activated_at = coalesce(l.activated_at, ${now})
         where l.license_key = ${p("licenseKey")}
           and not exists (select 1 from reused)
           and ${liveSql("l", now)}
           and (l.machine_limit is null or l.live_seats < l.machine_limit)
           and ${bindingAdmitsSql("l", fingerprint)}
           and l.max_new_devices_per_window is null
           and not (${components} is not null and exists (
                 select 1 from activations k
                  where k.license_id = l.id and ${liveSinceSql("k", knownSinceAt)}
                    and ${reachesThresholdSql(sql`l.fingerprint_match`, sql`k.components`, components)}))
        returning l.id, l.company_id, l.template_id`,
  );
  const inserted = db.$with("inserted", {}).as(
    sql`insert into activations (id, license_id, company_id, template_id, hw_fingerprint, components,
                             new_device, machine_name, status, activated_at, client_ip)
        select ${activationId}, claimed.id, claimed.company_id, claimed.template_id, ${fingerprint}, ${components},
               not exists (select 1 from activations k
                            where k.license_id = claimed.id and k.hw_fingerprint = ${fingerprint}
                              and ${liveSinceSql("k", knownSinceAt)}),
               ${p("machineName")}::text, 'active', ${now}, ${clientIp}
          from claimed`,
  );
  // The event data and audit meta come from the caller; only the license id is the database's to add.
  const event = db.$with("event", {}).as(
    sql`insert into outbox_events (event_type, data, occurred_at)
        select 'license.activated', ${p("eventData")}::jsonb || jsonb_build_object('licenseId', claimed.id), ${now}
          from claimed`,
  );
  const audit = db.$with("audit", {}).as(
    sql`insert into audit_log (action, actor_email, entity_type, entity_id, meta, ip_address, occurred_at)
        select 'license.activated', null, 'activation', ${activationId}::text,
               ${p("auditMeta")}::jsonb || jsonb_build_object(
                 'licenseId', claimed.id,
                 'pinned', license.hw_binding = 'firstActivation' and license.hw_fingerprint is null),
               ${clientIp}, ${now}
          from claimed, license`,
  );
  return db
    .with(license, reused, refreshed, claimed, inserted, event, audit)
    .select({
      license: {
        id: license.id,
        status: license.status,
        expiresAt: license.expiresAt,
        hwBinding: license.hwBinding,
        hwFingerprint: license.hwFingerprint,
        seatModel: license.seatModel,
        machineLimit: license.machineLimit,
        liveSeats: license.liveSeats,
        offlineDays: license.offlineDays,
        signingKeyId: license.signingKeyId,
        fingerprintMatch: license.fingerprintMatch,
        maxNewDevicesPerWindow: license.maxNewDevicesPerWindow,
        templateId: license.templateId,
        revocation: license.revocation,
        revokedAt: license.revokedAt,
      },
      // The facts of the key that signs the marker, read with the license: no second round trip.
      signingKey: {
        id: license.signingKeyId,
        templateId: license.keyTemplateId,
        status: license.keyStatus,
        isRoot: license.keyIsRoot,
        certificate: license.keyCertificate,
      },
      claimed: sql<boolean>`exists (select 1 from claimed)`,
      reusedId: sql<string | null>`(select id from reused limit 1)`,
    })
    .from(license)
    .prepare("client_activate");
}

export type ActivationStatement = ReturnType<typeof prepareActivation>;
type Outcome = Awaited<ReturnType<ActivationStatement["execute"]>>[number];
type LicenseSnapshot = Outcome["license"];

/** What one activation request asks for, normalised. */
export interface MachineRequest {
  licenseKey: string;
  hwFingerprint: string | null;
  components: FingerprintComponent[] | null;
  machineName: string | null;
}

/** An activation that succeeded: the license's terms for the marker, the activation, and whether it healed. */
export interface Activated {
  license: { id: string; offlineDays: number; signingKeyId: string };
  /** The signing key's facts when the activation statement read them (the locked path does not). */
  signingKey?: LicenseKeyFacts;
  activationId: string;
  healed: boolean;
}

/**
 * POST /client/activate (spec §4): one statement takes a seat, pins the machine when the license binds on
 * first activation, and records the activation with its event and audit row. A known machine reuses its
 * live activation and takes no second seat. What that statement leaves to TypeScript (a machine that
 * may heal, a license with a device budget) is decided under the license row's lock (`activateLocked`).
 */
export async function activate(
  deps: Deps,
  input: ActivateRequest,
  request: RequestInfo,
): Promise<ActivateResponse> {
  const startedAt = deps.activations.activateLatency.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const machine = licenseKey
    ? {
        licenseKey,
        hwFingerprint: input.hwFingerprint ?? null,
        components: input.components?.length ? input.components : null,
        machineName: input.machineName ?? null,
      }
    : null;
  const activation = machine ? await activateOnce(deps, machine, request) : null;
  if (!activation) {
    await deps.activations.activateLatency.padFailure(startedAt);
    return fail("license.not_found", "No license with this key");
  }
  const { license, activationId, healed, signingKey } = activation;
  const { heartbeatToken, ...certificates } = await issueMarker(deps, deps.db, {
    licenseId: license.id,
    activationId,
    hwFingerprint: machine!.hwFingerprint,
    offlineDays: license.offlineDays,
    signingKey: signingKey ?? (await licenseKeyFacts(deps.db, license.signingKeyId)),
  });
  deps.activations.activateLatency.recordSuccess(startedAt);
  return {
    activationId,
    heartbeatToken,
    heartbeatIntervalSeconds: deps.config.licensing.heartbeatIntervalSeconds,
    maxOfflineDays: license.offlineDays,
    healed,
    ...certificates,
  };
}

// A statement is run again only when a concurrent activation changed the license between its start and
// its seat claim; each run starts from a newer snapshot, so a few runs always settle.
const MAX_RUNS = 5;

/** Whether the statement may have left the request to `activateLocked` rather than refused it. */
const deferred = (license: LicenseSnapshot, machine: MachineRequest) =>
  license.maxNewDevicesPerWindow !== null ||
  (machine.components !== null && license.fingerprintMatch !== "exact");

async function activateOnce(
  deps: Deps,
  machine: MachineRequest,
  request: RequestInfo,
): Promise<Activated | null> {
  const { licenseKey, hwFingerprint: fingerprint, machineName, components } = machine;
  for (let run = 1; ; run++) {
    const activationId = randomUUID();
    let outcome: Outcome | undefined;
    try {
      const now = deps.clock.now();
      [outcome] = await deps.activations.activation.execute({
        licenseKey,
        fingerprint,
        machineName,
        components: components && encodeComponents(components),
        clientIp: request.ip,
        activationId,
        now: now.toISOString(),
        knownSince: knownSince(now).toISOString(),
        eventData: JSON.stringify({
          licenseKey,
          activationId,
          hwFingerprint: fingerprint,
          machineName,
          clientIp: request.ip,
          mode: "online",
        } satisfies Omit<EventData<"license.activated">, "licenseId">),
        auditMeta: JSON.stringify({
          hwFingerprint: fingerprint,
          machineName,
          // Kinds only (what changed is what a reader needs), and only when the machine sent some.
          components: components?.map((c) => c.kind),
        }),
      });
      if (outcome && !outcome.claimed && !outcome.reusedId && deferred(outcome.license, machine)) {
        return await activateLocked(deps, machine, request);
      }
    } catch (error) {
      const raced = isUniqueViolation(error, "activations_active_machine_key") || isDeadlock(error);
      if (raced && run < MAX_RUNS) continue;
      throw error;
    }
    if (!outcome) return null;
    const { license, signingKey } = outcome;
    if (outcome.claimed) return { license, signingKey, activationId, healed: false };

    if (effectiveStatus(license, deps.clock.now()) !== "Active") await refuseNotLive(deps, deps.db, license);
    checkBinding(license, fingerprint ?? undefined);
    if (outcome.reusedId) return { license, signingKey, activationId: outcome.reusedId, healed: false };
    if (machinesFull(license)) await refuseMachine(deps.db, license);
    if (run >= MAX_RUNS) throw new Error(`Activation of ${licenseKey} kept racing concurrent changes`);
  }
}
