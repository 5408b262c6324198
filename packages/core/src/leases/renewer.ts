import { sql } from "drizzle-orm";
import { runAgainOnDeadlock, type Db } from "@licensing/db";
import { NaturalBatch } from "../batching/natural-batch.ts";
import type { Metrics } from "../metrics/metrics.ts";
import type { Clock } from "../clock.ts";
import { liveSql } from "../licenses/live.ts";
import {
  keyFactColumns,
  keyFactsOf,
  keyFactsReturning,
  type LicenseKeyFacts,
} from "../activations/marker.ts";
import type { LeaseSubject } from "./answer.ts";
import { leaseLiveSql } from "./live.ts";

/**
 * The renewal of live leases, the hot path of floating seats, as one prepared statement per batch: each
 * live lease's `expiresAt` moves to `leaseSeconds` from now (as `leaseExpiry` computes it: never past the
 * license's expiry), never earlier than it was, so a borrowed lease keeps its end. It takes
 * no license lock: a live lease's seat is already counted, and an acquire that counts an expired lease free
 * marks it lapsed first, which this statement then no longer matches.
 */
function prepareRenewals(db: Db) {
  const p = sql.placeholder;
  const now = sql`${p("now")}::timestamptz`;
  const renewed = db
    .$with("renewed", {
      leaseId: sql<string>`lease_id`.as("lease_id"),
      expiresAtMs: sql<number>`expires_at_ms`.as("expires_at_ms"),
      licenseKey: sql<string>`license_key`.as("license_key"),
      licenseId: sql<string>`license_id`.as("license_id"),
      activationId: sql<string>`activation_id`.as("activation_id"),
      hwFingerprint: sql<string | null>`hw_fingerprint`.as("hw_fingerprint"),
      signingKeyId: sql<string>`signing_key_id`.as("signing_key_id"),
      ...keyFactColumns,
    })
    .as(
      sql`update leases s
             set expires_at = greatest(s.expires_at,
                   least(${now} + l.lease_seconds * interval '1 second', l.expires_at))
            from licenses l join signing_keys sk on sk.id = l.signing_key_id, activations a,
                 unnest(${p("leaseIds")}::uuid[], ${p("licenseKeys")}::text[]) as r(lease_id, license_key)
           where s.id = r.lease_id
             and ${leaseLiveSql("s", now)}
             and l.id = s.license_id and l.license_key = r.license_key
             and ${liveSql("l", now)} and l.seat_model = 'floating'
             and a.id = s.activation_id
          returning s.id as lease_id, (extract(epoch from s.expires_at) * 1000)::float8 as expires_at_ms,
                    l.license_key, l.id as license_id, s.activation_id, a.hw_fingerprint, l.signing_key_id,
                    ${keyFactsReturning}`,
    );
  return db.with(renewed).select().from(renewed).prepare("client_lease_renewals");
}

interface Request {
  leaseId: string;
  licenseKey: string;
}
const keyOf = (r: Request) => `${r.leaseId} ${r.licenseKey}`;

/** A renewed lease, with the facts of the key that signs its token (read in the same statement). */
export interface RenewedLease extends LeaseSubject {
  signingKey: LicenseKeyFacts;
}

/**
 * Renews live leases with natural batching (`NaturalBatch`, decision 0008). A lease the statement does not
 * match resolves undefined: expired, released, unknown, or a license that is not live or not floating;
 * the locked path (`renewLease`) names why, or brings an expired lease back if a seat is free.
 */
export class LeaseRenewer {
  private readonly statement;
  private readonly batch;

  constructor(
    db: Db,
    private readonly clock: Clock,
    metrics?: Metrics,
  ) {
    this.statement = prepareRenewals(db);
    this.batch = new NaturalBatch<Request, RenewedLease>(
      (requests) => this.write(requests),
      keyOf,
      undefined,
      metrics && ((size) => metrics.batch("lease-renewals", size)),
    );
  }

  renew(leaseId: string, licenseKey: string): Promise<RenewedLease | undefined> {
    return this.batch.submit({ leaseId, licenseKey });
  }

  private async write(requests: Request[]): Promise<Map<string, RenewedLease>> {
    const params = {
      now: this.clock.now().toISOString(),
      leaseIds: requests.map((r) => r.leaseId),
      licenseKeys: requests.map((r) => r.licenseKey),
    };
    // Two batches (two instances), or a batch and an acquire marking leases lapsed, can deadlock on lease
    // rows; PostgreSQL aborts one statement, which runs again.
    const rows = await runAgainOnDeadlock(() => this.statement.execute(params));
    return new Map(
      rows.map((row) => [
        keyOf(row),
        {
          leaseId: row.leaseId,
          expiresAt: new Date(Number(row.expiresAtMs)),
          licenseId: row.licenseId,
          activationId: row.activationId,
          hwFingerprint: row.hwFingerprint,
          signingKeyId: row.signingKeyId,
          signingKey: keyFactsOf(row),
        },
      ]),
    );
  }
}
