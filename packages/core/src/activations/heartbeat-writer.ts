import { sql } from "drizzle-orm";
import { isDeadlock, type Db } from "@licensing/db";
import type { Clock } from "../clock.ts";
import { liveSql } from "../licenses/live.ts";
import type { LicenseKeyFacts, MarkerSubject } from "./marker.ts";

/** What a matched heartbeat needs for its marker. */
export type Beat = MarkerSubject;

function prepareHeartbeats(db: Db) {
  const now = sql`${sql.placeholder("now")}::timestamptz`;
  const touched = db
    .$with("touched", {
      licenseId: sql<string>`license_id`.as("license_id"),
      licenseKey: sql<string>`license_key`.as("license_key"),
      activationId: sql<string>`activation_id`.as("activation_id"),
      hwFingerprint: sql<string | null>`hw_fingerprint`.as("hw_fingerprint"),
      offlineDays: sql<number>`offline_days`.as("offline_days"),
      signingKeyId: sql<string>`signing_key_id`.as("signing_key_id"),
      templateId: sql<string>`template_id`.as("template_id"),
      keyStatus: sql<LicenseKeyFacts["status"]>`key_status`.as("key_status"),
      keyIsRoot: sql<boolean>`key_is_root`.as("key_is_root"),
      keyCertificate: sql<string | null>`key_certificate`.as("key_certificate"),
    })
    .as(
      sql`update activations a
             set last_heartbeat_at = ${now}, silence_reported_at = null
            from licenses l
                 join signing_keys sk on sk.id = l.signing_key_id,
                 unnest(${sql.placeholder("activationIds")}::uuid[], ${sql.placeholder("licenseKeys")}::text[])
                   as beat(activation_id, license_key)
           where a.id = beat.activation_id
             and a.status = 'active'
             and l.id = a.license_id
             and l.license_key = beat.license_key
             and ${liveSql("l", now)}
          returning l.id as license_id, l.license_key, a.id as activation_id, a.hw_fingerprint,
                    l.offline_days, l.signing_key_id, l.template_id, sk.status as key_status,
                    sk.is_root as key_is_root, sk.certificate as key_certificate`,
    );
  const recorded = db.$with("recorded", {}).as(
    sql`insert into heartbeat_records (activation_id, license_id, occurred_at)
          select activation_id, license_id, ${now} from touched`,
  );
  // SKIP LOCKED: a license row held by an activation or a panel change is simply left for a later beat,
  // so a heartbeat never waits on a license lock (nor joins a lock cycle with those writers).
  const licenseSeen = db.$with("license_seen", {}).as(
    sql`update licenses set last_heartbeat_at = ${now}
           where id in (select id from licenses
                         where id in (select license_id from touched)
                           and (last_heartbeat_at is null or last_heartbeat_at < ${now} - interval '1 minute')
                           for update skip locked)`,
  );
  return db.with(touched, recorded, licenseSeen).select().from(touched).prepare("client_heartbeats");
}

interface Pending {
  activationId: string;
  licenseKey: string;
  waiters: Array<{ resolve(beat: Beat | undefined): void; reject(error: unknown): void }>;
}

const MAX_BATCH = 500;
const DEADLOCK_RUNS = 3;

/**
 * Writes heartbeats with natural batching: a beat that arrives while no write is in flight is written at
 * once, alone; beats that arrive while one is in flight wait for it and then go together, in one
 * statement. An idle server adds no delay, and a busy one pays one round trip, one plan and one commit for
 * many beats instead of one each, which is most of a heartbeat's cost (decision 0008).
 *
 * One statement checks each beat's license and activation, records it, ends a reported silence and moves
 * both lastHeartbeatAt forward: the activation's exactly, the license's at most once a minute.
 */
export class HeartbeatWriter {
  private readonly statement;
  private pending = new Map<string, Pending>();
  private writing = false;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.statement = prepareHeartbeats(db);
  }

  /** Resolves with the beat's marker subject, or undefined when it matched no live activation. */
  beat(activationId: string, licenseKey: string): Promise<Beat | undefined> {
    return new Promise((resolve, reject) => {
      // The same activation twice in one batch is one beat: both callers get its answer.
      const key = `${activationId} ${licenseKey}`;
      let entry = this.pending.get(key);
      if (!entry) this.pending.set(key, (entry = { activationId, licenseKey, waiters: [] }));
      entry.waiters.push({ resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain() {
    this.writing = true;
    try {
      while (this.pending.size > 0) {
        const batch = [...this.pending.values()].slice(0, MAX_BATCH);
        for (const entry of batch) this.pending.delete(`${entry.activationId} ${entry.licenseKey}`);
        await this.write(batch);
      }
    } finally {
      this.writing = false;
    }
  }

  private async write(batch: Pending[]) {
    let rows: Awaited<ReturnType<ReturnType<typeof prepareHeartbeats>["execute"]>>;
    try {
      rows = await this.execute(batch);
    } catch (error) {
      for (const entry of batch) for (const waiter of entry.waiters) waiter.reject(error);
      return;
    }
    const matched = new Map(rows.map((row) => [`${row.activationId} ${row.licenseKey}`, row]));
    for (const entry of batch) {
      const row = matched.get(`${entry.activationId} ${entry.licenseKey}`);
      const beat: Beat | undefined = row && {
        licenseId: row.licenseId,
        activationId: row.activationId,
        hwFingerprint: row.hwFingerprint,
        offlineDays: row.offlineDays,
        signingKey: {
          id: row.signingKeyId,
          templateId: row.templateId,
          status: row.keyStatus,
          isRoot: row.keyIsRoot,
          certificate: row.keyCertificate,
        },
      };
      for (const waiter of entry.waiters) waiter.resolve(beat);
    }
  }

  private async execute(batch: Pending[]) {
    const params = {
      now: this.clock.now().toISOString(),
      activationIds: batch.map((entry) => entry.activationId),
      licenseKeys: batch.map((entry) => entry.licenseKey),
    };
    for (let run = 1; ; run++) {
      try {
        return await this.statement.execute(params);
      } catch (error) {
        // Two instances beating the same activations at once can deadlock; PostgreSQL aborts one of them.
        if (!isDeadlock(error) || run >= DEADLOCK_RUNS) throw error;
      }
    }
  }
}
