/**
 * Audit export benchmark: inserts ROWS audit rows (default 100,000) into a scratch database, starts the
 * app, downloads GET /api/v1/panel/audit/export?format=csv over HTTP as the operator, and prints rows/s and
 * the process RSS before and at peak during the export.
 *
 *   npx tsx scripts/bench-audit-export.ts                      # embedded PGlite (in memory)
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx scripts/bench-audit-export.ts
 *
 * With DATABASE_URL a fresh database is created on that server and dropped afterwards.
 * ROWS=250000 changes the row count; the server and the reading client share this process.
 */
import { startBenchApp } from "./lib/bench-app.ts";

const ROWS = Number(process.env.ROWS ?? 100_000);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

const app = await startBenchApp({ embedded: !process.env.DATABASE_URL });
const { database } = app;
try {
  // Meta with a comma, quotes and a newline in every row, so the CSV escaping is exercised throughout.
  const insertStarted = performance.now();
  await database.db.execute(`
    INSERT INTO audit_log (action, actor_email, entity_type, entity_id, meta, ip_address, occurred_at)
    SELECT 'bench.row', 'bench@example.com', 'thing', i::text,
           jsonb_build_object('i', i, 'note', 'a, "quoted"' || chr(10) || 'line'),
           '203.0.113.7', timestamptz '2026-01-01T00:00:00Z' + i * interval '1 millisecond'
    FROM generate_series(1, ${ROWS}) AS i`);
  // Autovacuum analyses a table after a bulk load; without statistics the planner guesses a handful of
  // rows and sorts each page instead of walking the (occurred_at, id) index.
  await database.db.execute("ANALYZE audit_log");
  const insertSeconds = (performance.now() - insertStarted) / 1000;

  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);

  const started = performance.now();
  const res = await fetch(`${app.url}/api/v1/panel/audit/export?format=csv&action=bench.row`, {
    headers: { cookie: `service.auth=${app.operator.cookie}` },
  });
  if (res.status !== 200 || !res.body) throw new Error(`export failed: ${res.status}`);
  let bytes = 0;
  let records = -1; // the header line
  const decoder = new TextDecoder();
  let carry = "";
  for await (const chunk of res.body) {
    bytes += chunk.byteLength;
    // Records end in CRLF; the newline inside meta is a bare LF, so CRLF counts records exactly.
    const text = carry + decoder.decode(chunk, { stream: true });
    records += text.split("\r\n").length - 1;
    carry = text.endsWith("\r") ? "\r" : "";
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);

  const result = {
    database: database.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite (embedded)",
    rows: records,
    insertSeconds: Number(insertSeconds.toFixed(2)),
    exportSeconds: Number(seconds.toFixed(2)),
    rowsPerSecond: Math.round(records / seconds),
    bytes,
    rssBefore: mb(before),
    rssPeak: mb(peak),
    rssGrowth: mb(peak - before),
  };
  console.log(JSON.stringify(result, null, 2));
  if (records !== ROWS) throw new Error(`expected ${ROWS} rows, got ${records}`);
} finally {
  await app.close();
}
