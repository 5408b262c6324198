/**
 * What keeping daily usage current on the heartbeat write path would cost (decision 0028): batches of
 * heartbeat inserts as the HeartbeatWriter sends them (unnest of arrays, one statement), alone and with
 * an upsert of the day's per-company counter in the same statement, by one writer and by two at once
 * (two server instances). The counter table is a scratch copy, dropped afterwards.
 */
import type { Db } from "@licensing/db";
import { sql } from "drizzle-orm";
import { percentile, rows } from "./bench-app.ts";

interface Beat {
  id: string;
  license_id: string;
  company_id: string;
}

const variants = {
  "records only (the write path as it is)": (beats: Beat[]) => sql`
    INSERT INTO heartbeat_records (activation_id, license_id, occurred_at)
    SELECT a, l, now() FROM unnest(${`{${beats.map((b) => b.id)}}`}::uuid[], ${`{${beats.map((b) => b.license_id)}}`}::uuid[]) AS beat(a, l)`,
  "records + per-day company counter upsert": (beats: Beat[]) => sql`
    WITH recorded AS (
      INSERT INTO heartbeat_records (activation_id, license_id, occurred_at)
      SELECT a, l, now() FROM unnest(${`{${beats.map((b) => b.id)}}`}::uuid[], ${`{${beats.map((b) => b.license_id)}}`}::uuid[]) AS beat(a, l))
    INSERT INTO bench_usage_live AS u (day, company_id, heartbeats)
    SELECT (now() AT TIME ZONE 'UTC')::date, c, count(*)::int
      FROM unnest(${`{${beats.map((b) => b.company_id)}}`}::uuid[]) AS c GROUP BY c ORDER BY c
    ON CONFLICT (day, company_id) DO UPDATE SET heartbeats = u.heartbeats + excluded.heartbeats`,
};

export async function measureWritePath(db: Db, options: { batches: number; batchSize: number }) {
  await db.execute(sql`
    CREATE TABLE bench_usage_live (day date, company_id uuid, heartbeats int NOT NULL, PRIMARY KEY (day, company_id))`);
  const pool = await rows<Beat>(
    db,
    sql`SELECT id, license_id, company_id FROM activations WHERE status = 'active' ORDER BY random() LIMIT 5000`,
  );
  const batch = () =>
    Array.from({ length: options.batchSize }, () => pool[Math.floor(Math.random() * pool.length)]!);
  const writer = async (statement: (beats: Beat[]) => ReturnType<typeof sql>) => {
    const times: number[] = [];
    for (let i = 0; i < options.batches; i++) {
      const beats = batch();
      const t = performance.now();
      await db.execute(statement(beats));
      times.push(performance.now() - t);
    }
    return times;
  };
  const summary = (times: number[]) => {
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50).toFixed(2), p95: percentile(times, 95).toFixed(2) };
  };
  const results = [];
  try {
    for (const [variant, statement] of Object.entries(variants)) {
      await writer(statement); // warm-up: plans, caches
      const one = summary(await writer(statement));
      const two = summary((await Promise.all([writer(statement), writer(statement)])).flat());
      results.push({ variant, one, two });
    }
  } finally {
    await db.execute(sql`DROP TABLE bench_usage_live`);
  }
  return results;
}
