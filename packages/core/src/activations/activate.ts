import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { isDeadlock, isUniqueViolation, tables, type Db } from "@licensing/db";
import type { ActivateRequest, ActivateResponse, EventData } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps, RequestInfo } from "../deps.ts";
import { fail } from "../errors.ts";
import { liveSql } from "../licenses/live.ts";
import { effectiveStatus } from "../licenses/mappers.ts";
import { bindingAdmitsSql, checkBinding } from "./binding.ts";
import { issueMarker } from "./marker.ts";

/**
 * The whole activation as one statement, so one round trip that commits on its own:
 * - `license` and `reused` read the license and the machine's live activation as of the statement's start;
 * - `claimed` takes a seat: an UPDATE of the license row that only matches while the license is Active,
 *   the binding admits the fingerprint and a seat is free. An UPDATE re-checks its conditions on the newest
 *   row version after waiting for a concurrent writer's lock, so the seat count and the pin cannot race.
 *   It pins a firstActivation license and stamps the first activation;
 * - the activation, its `license.activated` event and audit row are written only when a seat was taken.
 * When two activations of one new machine race, the loser breaks the one-live-activation-per-machine
 * index, the statement undoes itself, and running it again finds the winner's activation to reuse.
 */
export function prepareActivation(db: Db) {
  const l = tables.licenses;
  const p = sql.placeholder;
  const now = sql`${p("now")}::timestamptz`;
  const fingerprint = sql`${p("fingerprint")}::text`;
  const activationId = sql`${p("activationId")}::uuid`;
  const clientIp = sql`${p("clientIp")}::text`;

  const license = db.$with("license").as(
    db
      .select({
        id: l.id,
        status: l.status,
        expiresAt: l.expiresAt,
        hwBinding: l.hwBinding,
        hwFingerprint: l.hwFingerprint,
        maxSeats: l.maxSeats,
        liveSeats: l.liveSeats,
        offlineDays: l.offlineDays,
        signingKeyId: l.signingKeyId,
      })
      .from(l)
      .where(eq(l.licenseKey, p("licenseKey"))),
  );
  const reused = db.$with("reused", { id: sql<string>`id`.as("id") }).as(
    sql`select a.id from activations a, license
         where a.license_id = license.id and a.status = 'active' and a.hw_fingerprint = ${fingerprint}`,
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
           and (l.max_seats is null or l.live_seats < l.max_seats)
           and ${bindingAdmitsSql("l", fingerprint)}
        returning l.id, l.company_id, l.template_id`,
  );
  const inserted = db.$with("inserted", {}).as(
    sql`insert into activations (id, license_id, company_id, template_id, hw_fingerprint, machine_name, status,
                             activated_at, client_ip)
        select ${activationId}, claimed.id, claimed.company_id, claimed.template_id, ${fingerprint},
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
    .with(license, reused, claimed, inserted, event, audit)
    .select({
      license: {
        id: license.id,
        status: license.status,
        expiresAt: license.expiresAt,
        hwBinding: license.hwBinding,
        hwFingerprint: license.hwFingerprint,
        maxSeats: license.maxSeats,
        liveSeats: license.liveSeats,
        offlineDays: license.offlineDays,
        signingKeyId: license.signingKeyId,
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

/**
 * POST /client/activate (spec §4): one statement takes a seat, pins the machine when the license binds on
 * first activation, and records the activation with its event and audit row. A known machine reuses its
 * live activation and takes no second seat. Only when nothing was taken do the license's checks run here,
 * to name the rule that refused.
 */
export async function activate(
  deps: Deps,
  input: ActivateRequest,
  request: RequestInfo,
): Promise<ActivateResponse> {
  const startedAt = deps.activations.activateLatency.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const fingerprint = input.hwFingerprint ?? null;
  const machineName = input.machineName ?? null;
  const activation = licenseKey
    ? await activateOnce(deps, licenseKey, fingerprint, machineName, request)
    : null;
  if (!activation) {
    await deps.activations.activateLatency.padFailure(startedAt);
    return fail("license.not_found", "No license with this key");
  }
  const { license, activationId } = activation;
  const heartbeatToken = await issueMarker(deps, deps.db, {
    licenseId: license.id,
    activationId,
    hwFingerprint: fingerprint,
    offlineDays: license.offlineDays,
    signingKeyId: license.signingKeyId,
  });
  deps.activations.activateLatency.recordSuccess(startedAt);
  return {
    activationId,
    heartbeatToken,
    heartbeatIntervalSeconds: deps.config.licensing.heartbeatIntervalSeconds,
    maxOfflineDays: license.offlineDays,
  };
}

// A statement is run again only when a concurrent activation changed the license between its start and
// its seat claim; each run starts from a newer snapshot, so a few runs always settle.
const MAX_RUNS = 5;

async function activateOnce(
  deps: Deps,
  licenseKey: string,
  fingerprint: string | null,
  machineName: string | null,
  request: RequestInfo,
): Promise<{ license: LicenseSnapshot; activationId: string } | null> {
  for (let run = 1; ; run++) {
    const activationId = randomUUID();
    let outcome: Outcome | undefined;
    try {
      [outcome] = await deps.activations.activation.execute({
        licenseKey,
        fingerprint,
        machineName,
        clientIp: request.ip,
        activationId,
        now: deps.clock.now().toISOString(),
        eventData: JSON.stringify({
          licenseKey,
          activationId,
          hwFingerprint: fingerprint,
          machineName,
          clientIp: request.ip,
        } satisfies Omit<EventData<"license.activated">, "licenseId">),
        auditMeta: JSON.stringify({ hwFingerprint: fingerprint, machineName }),
      });
    } catch (error) {
      const raced = isUniqueViolation(error, "activations_active_machine_key") || isDeadlock(error);
      if (raced && run < MAX_RUNS) continue;
      throw error;
    }
    if (!outcome) return null;
    const { license } = outcome;
    if (outcome.claimed) return { license, activationId };

    const now = deps.clock.now();
    const status = effectiveStatus(license, now);
    if (status !== "Active") fail("license.not_active", `The license is ${status}`);
    checkBinding(license, fingerprint ?? undefined);
    if (outcome.reusedId) return { license, activationId: outcome.reusedId };
    if (license.maxSeats !== null && license.liveSeats >= license.maxSeats) {
      fail("activation.seat_limit_reached", `All ${license.maxSeats} seats of the license are in use`);
    }
    if (run >= MAX_RUNS) throw new Error(`Activation of ${licenseKey} kept racing concurrent changes`);
  }
}
