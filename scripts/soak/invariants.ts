import pg from "pg";
import type { FaultWindow } from "./faults.ts";
import type { Ledger } from "./machines.ts";
import type { Receiver } from "./receiver.ts";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  /** False for a figure reported but not judged (the run was too short for it); such a check never fails. */
  judged?: boolean;
}

type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

export async function withDatabase<T>(url: string, run: (query: Query) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    return await run(async (text, values) => (await client.query(text, values)).rows);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Node-locked licenses with more active activations than seats, and live_seats that disagree with them. */
export const OVERSOLD_SQL = `
  select l.id::text, l.max_seats as seats, l.live_seats as counter,
         (select count(*)::int from activations a where a.license_id = l.id and a.status = 'active') as active
    from licenses l
   where l.seat_model <> 'floating' and l.max_seats is not null`;

/** Floating licenses with their live leases (not released, not lapsed, not expired) against their seats. */
export const LIVE_LEASES_SQL = `
  select l.id::text, l.max_seats as seats, count(distinct s.activation_id)::int as live
    from licenses l join leases s on s.license_id = l.id
   where l.seat_model = 'floating' and s.released_at is null and not s.lapsed and s.expires_at > now()
   group by l.id, l.max_seats`;

/** The worst moment seen by the sampler during the run. */
export interface Samples {
  taken: number;
  failed: number;
  oversold: number;
  leasesOver: number;
  maxLeaseShare: number;
}

/** Samples seats and leases every few seconds while the load runs (a failed sample, e.g. PostgreSQL down, is counted). */
export function startSampler(url: string, everyMs: number) {
  const samples: Samples = { taken: 0, failed: 0, oversold: 0, leasesOver: 0, maxLeaseShare: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      try {
        await withDatabase(url, async (query) => {
          const seats = await query(OVERSOLD_SQL);
          samples.oversold = Math.max(
            samples.oversold,
            seats.filter((r) => Number(r.active) > Number(r.seats)).length,
          );
          const leases = await query(LIVE_LEASES_SQL);
          samples.leasesOver = Math.max(
            samples.leasesOver,
            leases.filter((r) => Number(r.live) > Number(r.seats)).length,
          );
          for (const r of leases)
            samples.maxLeaseShare = Math.max(samples.maxLeaseShare, Number(r.live) / Number(r.seats));
        });
        samples.taken++;
      } catch {
        samples.failed++;
      }
    }
  })();
  return {
    samples,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/**
 * Waits until every webhook delivery is settled (none Pending: a delivery claimed by the killed instance
 * waits for its claim to run out, then another instance sends it), within `patienceSeconds`.
 */
export async function settleWebhooks(url: string, patienceSeconds: number, say: (m: string) => void) {
  const deadline = Date.now() + patienceSeconds * 1000;
  let pending = -1;
  while (Date.now() < deadline) {
    pending = await withDatabase(url, async (query) =>
      Number(
        (await query(`select count(*)::int as n from webhook_deliveries where status = 'Pending'`))[0]!.n,
      ),
    ).catch(() => -1);
    if (pending === 0) return 0;
    say(`waiting for ${pending} webhook deliveries to settle`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
  }
  return pending;
}

export async function checkInvariants(input: {
  url: string;
  ledger: Ledger;
  receiver: Receiver;
  samples: Samples;
  windows: FaultWindow[];
}): Promise<{ checks: Check[]; figures: Record<string, number> }> {
  const { ledger, receiver, samples } = input;
  return withDatabase(input.url, async (query) => {
    const checks: Check[] = [];
    const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });

    const seats = await query(OVERSOLD_SQL);
    const oversold = seats.filter((r) => Number(r.active) > Number(r.seats));
    const drifted = seats.filter((r) => Number(r.active) !== Number(r.counter));
    check(
      "no seat oversold",
      oversold.length === 0 && samples.oversold === 0,
      `${seats.length} node-locked licenses: ${oversold.length} over maxSeats at the end, ${samples.oversold} at worst in ${samples.taken} samples`,
    );
    check(
      "seat counters agree with the activations",
      drifted.length === 0,
      drifted.length === 0
        ? "licenses.live_seats = active activations on every license"
        : `${drifted.length} licenses differ, e.g. ${JSON.stringify(drifted.slice(0, 3))}`,
    );

    const leases = await query(LIVE_LEASES_SQL);
    const over = leases.filter((r) => Number(r.live) > Number(r.seats));
    check(
      "no lease beyond maxSeats",
      over.length === 0 && samples.leasesOver === 0,
      `${leases.length} floating licenses with live leases: ${over.length} over maxSeats at the end, ${samples.leasesOver} at worst in ${samples.taken} samples (fullest pool ${(samples.maxLeaseShare * 100).toFixed(0)} %)`,
    );

    // Acknowledged writes.
    const activationIds = [...ledger.activations.keys()];
    const found = new Map(
      (
        await query(`select id::text, status from activations where id = any($1::uuid[])`, [activationIds])
      ).map((r) => [String(r.id), String(r.status)]),
    );
    const missing = activationIds.filter((id) => !found.has(id));
    const wrongState = [...ledger.activations].filter(
      ([id, entry]) =>
        found.has(id) && !entry.uncertain && (found.get(id) === "active") !== (entry.state === "active"),
    );
    const uncertain = [...ledger.activations.values()].filter((e) => e.uncertain).length;
    const deactivated = [...ledger.activations.values()].filter((e) => e.state === "inactive").length;
    const leaseIds = [...ledger.leases];
    const leasesFound = Number(
      (
        await query(`select count(distinct id)::int as n from leases where id = any($1::uuid[])`, [leaseIds])
      )[0]!.n,
    );
    const licenseIds = [...ledger.licenses];
    const licensesFound = Number(
      (await query(`select count(*)::int as n from licenses where id = any($1::uuid[])`, [licenseIds]))[0]!.n,
    );
    const heartbeatRows = Number((await query(`select count(*)::int as n from heartbeat_records`))[0]!.n);
    check(
      "no acknowledged write lost",
      missing.length === 0 &&
        wrongState.length === 0 &&
        leasesFound === leaseIds.length &&
        licensesFound === licenseIds.length,
      `${activationIds.length} activations (${missing.length} missing), ${deactivated} deactivations ` +
        `(${wrongState.length} in another state; ${uncertain} left unchecked after an unanswered request), ` +
        `${leaseIds.length} leases (${leaseIds.length - leasesFound} missing), ${licenseIds.length} licenses issued in the panel ` +
        `(${licenseIds.length - licensesFound} missing)`,
    );
    check(
      "every acknowledged heartbeat recorded",
      heartbeatRows >= ledger.heartbeats,
      `${ledger.heartbeats} heartbeats answered 200, ${heartbeatRows} heartbeat rows`,
    );

    // Webhooks: one endpoint subscribed to every event, so one delivery per event.
    const deliveries = await query(`select id::text, status from webhook_deliveries`);
    const events = Number((await query(`select count(*)::int as n from outbox_events`))[0]!.n);
    const unsettled = deliveries.filter((r) => r.status !== "Succeeded");
    const lost = deliveries.filter((r) => !receiver.counts.has(String(r.id)));
    const known = new Set(deliveries.map((r) => String(r.id)));
    const phantom = [...receiver.counts.keys()].filter((id) => !known.has(id));
    const doubled = [...receiver.counts].filter(([, n]) => n > 1);
    // At least once (decision 0025): a delivery sent whose success could not be recorded (its sender killed,
    // or PostgreSQL gone before the update) is sent again once its claim runs out. Such a double's first copy
    // arrived in a fault window (or the send timeout before it).
    const explained = doubled.filter(([id]) =>
      input.windows.some((w) => {
        const first = receiver.firstAt.get(id)!;
        return first >= w.at - 15 && first <= (w.until ?? Infinity);
      }),
    );
    const doubledAt = doubled.map(([id]) => `${receiver.firstAt.get(id)!.toFixed(1)} s`).join(", ");
    check(
      "no webhook lost or doubled",
      lost.length === 0 &&
        phantom.length === 0 &&
        unsettled.length === 0 &&
        doubled.length === explained.length &&
        deliveries.length === events &&
        receiver.badSignatures() === 0,
      `${events} events, ${deliveries.length} deliveries, ${receiver.counts.size} received: ${lost.length} lost, ` +
        `${unsettled.length} not Succeeded, ${doubled.length} received twice${doubled.length ? ` (first copies at ${doubledAt})` : ""}, ` +
        `${explained.length} of them first sent in a fault window and again after their claim ran out (at least once, ` +
        `decision 0025), ${receiver.badSignatures()} bad signatures`,
    );
    return {
      checks,
      figures: {
        activations: activationIds.length,
        deactivations: deactivated,
        leases: leaseIds.length,
        licensesIssued: licenseIds.length,
        heartbeats: ledger.heartbeats,
        heartbeatRows,
        events,
        deliveries: deliveries.length,
        received: receiver.counts.size,
        doubled: doubled.length,
      },
    };
  });
}
