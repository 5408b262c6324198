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

/**
 * Floating seats: `pools` Active licenses with an activation become floating with `maxSeats` seats, and
 * `count` lease spans are spread evenly over the `days` before now, in time order (the BRIN index relies
 * on it), each on a pool drawn by a multiplicative hash and held by the pool's first activation. A span
 * lasts 5 minutes to 8 hours; 70 % are released before they expire, the rest expire (marked lapsed, as an
 * acquire would), and 1 % are borrowed for up to 7 days. None is open, so the partial unique index of one
 * open lease per activation holds. Written in `chunks` statements.
 */
export async function insertLeases(
  db: Db,
  options: {
    count: number;
    days: number;
    pools: number;
    maxSeats: number;
    chunks: number;
    onChunk(done: number): void;
  },
) {
  await db.execute(sql`DROP TABLE IF EXISTS bench_pools`);
  await db.execute(sql`
    CREATE TABLE bench_pools AS
    SELECT row_number() OVER ()::int AS n, license_id, activation_id, company_id, template_id
      FROM (SELECT DISTINCT ON (a.license_id) a.license_id, a.id AS activation_id, a.company_id, a.template_id
              FROM activations a JOIN licenses l ON l.id = a.license_id
             WHERE a.status = 'active' AND l.status = 'Active'
             ORDER BY a.license_id, a.id
             LIMIT ${options.pools}) p`);
  await db.execute(sql`ALTER TABLE bench_pools ADD PRIMARY KEY (n)`);
  await db.execute(sql`
    UPDATE licenses l
       SET seat_model = 'floating',
           config = (l.config::jsonb || jsonb_build_object('limits',
                      coalesce(l.config::jsonb -> 'limits', '{}'::jsonb)
                        || jsonb_build_object('maxSeats', ${options.maxSeats}::int)))::text
      FROM bench_pools p WHERE p.license_id = l.id`);
  const [pools] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM bench_pools`);
  const size = Math.ceil(options.count / options.chunks);
  for (let first = 1; first <= options.count; first += size) {
    const last = Math.min(options.count, first + size - 1);
    await db.execute(sql`
      INSERT INTO leases (id, license_id, activation_id, company_id, template_id, acquired_at, expires_at,
                          borrowed_until, released_at, release_reason, lapsed)
      SELECT gen_random_uuid(), p.license_id, p.activation_id, p.company_id, p.template_id, s.at,
             s.at + s.held, CASE WHEN s.borrowed THEN s.at + s.held END,
             CASE WHEN s.released THEN s.at + s.held * 0.6 END, CASE WHEN s.released THEN 'client' END,
             NOT s.released
        FROM (SELECT g.i,
                     now() - ((${options.count} - g.i)::float8 / ${options.count}) * ${options.days} * interval '1 day' AS at,
                     CASE WHEN (g.i * 40503) % 100 = 0
                          THEN ((g.i * 7919) % 168 + 1) * interval '1 hour'
                          ELSE ((g.i * 7919) % 475 + 5) * interval '1 minute' END AS held,
                     (g.i * 40503) % 100 = 0 AS borrowed,
                     (g.i * 2246822519) % 10 < 7 AS released
                FROM generate_series(${first}::bigint, ${last}::bigint) AS g(i)) s
        JOIN bench_pools p ON p.n = 1 + (s.i * 2654435761) % ${pools!.n}
       ORDER BY s.i`);
    options.onChunk(last);
  }
  await db.execute(sql`DROP TABLE bench_pools`);
  return pools!.n;
}
