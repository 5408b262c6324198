/**
 * The analytics data set, on top of the license-search one (search-dataset.ts): activations for about half
 * of the licenses and heartbeat records over the last year, each written with INSERT … SELECT
 * generate_series. Heartbeats arrive in time order, as they do in production (the BRIN index relies on it).
 */
import type { Db } from "@licensing/db";
import { sql } from "drizzle-orm";
import { rows } from "./bench-app.ts";

/**
 * About 50 % of the licenses get an activation and 10 % a second one; an activation is live when its
 * license is Active. Returns the number written and how many are live.
 */
export async function insertActivations(db: Db) {
  await db.execute(sql`
    INSERT INTO activations (license_id, company_id, template_id, hw_fingerprint, machine_name, status,
                             activated_at, last_heartbeat_at, deactivated_at)
    SELECT l.id, l.company_id, l.template_id, encode(sha256(int4send(m) || uuid_send(l.id)), 'hex'), 'bench',
           CASE WHEN l.status = 'Active' THEN 'active' ELSE 'deactivated' END,
           l.issued_at + (get_byte(uuid_send(l.id), 3) + m) * interval '1 hour',
           CASE WHEN l.status = 'Active' THEN now() END,
           CASE WHEN l.status <> 'Active' THEN l.updated_at + interval '1 day' END
      FROM licenses l, generate_series(1, 2) AS m
     WHERE (m = 1 AND get_byte(uuid_send(l.id), 0) < 128) OR (m = 2 AND get_byte(uuid_send(l.id), 0) < 26)`);
  const [counts] = await rows<{ total: number; live: number }>(
    db,
    sql`SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'active')::int AS live FROM activations`,
  );
  return counts!;
}

/** Monthly heartbeat partitions from `monthsBack` months ago to two months ahead (what the job keeps). */
export async function createHeartbeatPartitions(db: Db, monthsBack: number) {
  await db.execute(sql`
    SELECT heartbeat_partition_create(m::date)
      FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC') - ${monthsBack} * interval '1 month',
                           date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months',
                           interval '1 month') AS m`);
}

/**
 * `count` heartbeat records spread evenly over the `days` before now, in time order, each from a live
 * activation drawn by a multiplicative hash of its sequence number. Written in `chunks` statements;
 * `onChunk` reports progress.
 */
export async function insertHeartbeats(
  db: Db,
  options: { count: number; days: number; chunks: number; onChunk(done: number): void },
) {
  await db.execute(sql`DROP TABLE IF EXISTS bench_live_activations`);
  await db.execute(sql`
    CREATE TABLE bench_live_activations AS
    SELECT row_number() OVER ()::int AS n, id, license_id FROM activations WHERE status = 'active'`);
  await db.execute(sql`ALTER TABLE bench_live_activations ADD PRIMARY KEY (n)`);
  const [live] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM bench_live_activations`);
  const size = Math.ceil(options.count / options.chunks);
  for (let first = 1; first <= options.count; first += size) {
    const last = Math.min(options.count, first + size - 1);
    await db.execute(sql`
      INSERT INTO heartbeat_records (activation_id, license_id, occurred_at)
      SELECT a.id, a.license_id,
             now() - ((${options.count} - g.i)::float8 / ${options.count}) * ${options.days} * interval '1 day'
        FROM generate_series(${first}::bigint, ${last}::bigint) AS g(i)
        JOIN bench_live_activations a ON a.n = 1 + (g.i * 2654435761) % ${live!.n}
       ORDER BY g.i`);
    options.onChunk(last);
  }
  await db.execute(sql`DROP TABLE bench_live_activations`);
}
