import { sql } from "drizzle-orm";
import { runAgainOnDeadlock, type Db } from "@licensing/db";
import type { Clock } from "../clock.ts";
import { NaturalBatch } from "../batching/natural-batch.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { liveSql } from "../licenses/live.ts";
import { keyFactColumns, keyFactsOf, keyFactsReturning, type MarkerSubject } from "./marker.ts";

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
      ...keyFactColumns,
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
                    l.offline_days, l.signing_key_id, ${keyFactsReturning}`,
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

interface Request {
  activationId: string;
  licenseKey: string;
}
const keyOf = (r: Request) => `${r.activationId} ${r.licenseKey}`;

/**
 * Writes heartbeats with natural batching (`NaturalBatch`, decision 0008): while one statement is in
 * flight, the beats that arrive wait for it and then go together in the next.
 *
 * One statement checks each beat's license and activation, records it, ends a reported silence and moves
 * both lastHeartbeatAt forward: the activation's exactly, the license's at most once a minute.
 */
export class HeartbeatWriter {
  private readonly statement;
  private readonly batch;

  constructor(
    db: Db,
    private readonly clock: Clock,
    metrics?: Metrics,
  ) {
    this.statement = prepareHeartbeats(db);
    this.batch = new NaturalBatch<Request, Beat>(
      (requests) => this.write(requests),
      keyOf,
      undefined,
      metrics && ((size) => metrics.batch("heartbeats", size)),
    );
  }

  /** Resolves with the beat's marker subject, or undefined when it matched no live activation. */
  beat(activationId: string, licenseKey: string): Promise<Beat | undefined> {
    // The same activation twice in one batch is one beat: both callers get its answer.
    return this.batch.submit({ activationId, licenseKey });
  }

  private async write(requests: Request[]): Promise<Map<string, Beat>> {
    const rows = await this.execute(requests);
    return new Map(
      rows.map((row) => [
        keyOf(row),
        {
          licenseId: row.licenseId,
          activationId: row.activationId,
          hwFingerprint: row.hwFingerprint,
          offlineDays: row.offlineDays,
          signingKey: keyFactsOf(row),
        },
      ]),
    );
  }

  private async execute(requests: Request[]) {
    const params = {
      now: this.clock.now().toISOString(),
      activationIds: requests.map((r) => r.activationId),
      licenseKeys: requests.map((r) => r.licenseKey),
    };
    // Two instances beating the same activations at once can deadlock; PostgreSQL aborts one of them.
    return runAgainOnDeadlock(() => this.statement.execute(params));
  }
}
