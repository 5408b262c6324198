import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signedPost, TestClient } from "@licensing/api/testing";
import { startWebhookReceiver, type WebhookReceiver } from "@licensing/api/testing/webhook-receiver";
import { createManualClock, MINUTE } from "@licensing/core";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "./env.ts";
import { startServer, type RunningServer } from "./server.ts";

// GET /metrics scraped as Prometheus would, after real traffic through a real server (decision 0054).
const OPS = { BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com", BOOTSTRAP_OPERATOR_PASSWORD: "ops-password" };
const TOKEN = "metrics-token-0123456789";
const HTML = { accept: "text/html,application/xhtml+xml" };
const clock = createManualClock(new Date("2026-11-26T12:00:00Z"));
let dataDir: string;
let database: TestDatabase;
let hooks: WebhookReceiver;
let server: RunningServer;
let other: RunningServer;

const start = () =>
  startServer(
    parseEnv({
      PORT: "0",
      DATA_DIR: dataDir,
      ...OPS,
      METRICS_TOKEN: TOKEN,
      WEBHOOK_POLL_INTERVAL_SECONDS: "3600",
      WEBHOOK_ALLOW_PRIVATE: "true",
    }),
    // The admin app's build, so that a path outside its pages shows it is not answered by the app.
    {
      database,
      clock,
      logger: pino({ level: "silent" }),
      adminDir: join(dataDir, "admin"),
      sweepIntervalMs: 3_600_000,
    },
  );

async function scrape(target = server) {
  const res = await fetch(`${target.url}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}`, ...HTML },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return res.text();
}

/** The value of the sample whose name and labels are given (labels in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "licensing-metrics-"));
  mkdirSync(join(dataDir, "admin"));
  writeFileSync(join(dataDir, "admin", "index.html"), "<!doctype html><title>admin</title>");
  database = await createTestDatabase();
  hooks = await startWebhookReceiver({ secret: "metrics-webhook-secret", now: () => clock.now() });
  server = await start();
}, 120_000);
afterAll(async () => {
  await other?.close();
  await server?.close();
  await hooks?.close();
  await database?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("GET /metrics", () => {
  it("asks for the token when METRICS_TOKEN is set, in the error shape", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", TOKEN]) {
      const res = await fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await res.json()).toMatchObject({ code: "auth.unauthenticated", status: 401 });
    }
  });

  it("counts requests by route template and status, with latency histograms, jobs, webhooks, batches and the process", async () => {
    const operator = new TestClient(server.url);
    await operator.login(OPS.BOOTSTRAP_OPERATOR_EMAIL, OPS.BOOTSTRAP_OPERATOR_PASSWORD);
    // The receiver fails the first attempt: the delivery waits for its retry a minute later.
    hooks.queue.push({ status: 500 });
    await operator.api.webhooks.create({
      body: { url: hooks.url, secret: "metrics-webhook-secret", description: "", events: ["license.issued"] },
    });
    const company = (await operator.api.companies.create({ body: { name: "Acme", slug: "acme" } })).body;
    const template = (
      await operator.api.templates.create({
        body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
      })
    ).body;
    const license = (
      await operator.api.licenses.issue({ body: { companyId: company.id, templateId: template.id } })
    ).body;
    expect((await operator.api.licenses.get({ params: { id: license.id } })).status).toBe(200);
    const client = new TestClient(server.url);
    const activated = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "fp-metrics" },
    });
    expect(activated.status).toBe(200);
    const beat = await signedPost(client, clock.now(), "/api/v1/client/heartbeat", {
      licenseKey: license.licenseKey,
      activationId: activated.body.activationId,
    });
    expect(beat.status).toBe(200);
    expect((await fetch(`${server.url}/trpc/auth.me`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/v1/panel/nope`)).status).toBe(404);
    await hooks.waitFor(1);

    let text = "";
    await vi.waitFor(
      async () => {
        text = await scrape();
        expect(sample(text, "licensing_webhook_deliveries_total", { outcome: "retrying" })).toBe(1);
        expect(sample(text, "licensing_job_runs_total", { job: "license-expiry", outcome: "ok" })).toBe(1);
      },
      { timeout: 20_000, interval: 100 },
    );

    const heartbeat = { method: "POST", route: "/api/v1/client/heartbeat", status: "200" };
    expect(sample(text, "licensing_http_requests_total", heartbeat)).toBe(1);
    expect(sample(text, "licensing_http_request_duration_seconds_bucket", { ...heartbeat, le: "+Inf" })).toBe(
      1,
    );
    expect(sample(text, "licensing_http_request_duration_seconds_bucket", { ...heartbeat, le: "10" })).toBe(
      1,
    );
    expect(sample(text, "licensing_http_request_duration_seconds_count", heartbeat)).toBe(1);
    expect(sample(text, "licensing_http_request_duration_seconds_sum", heartbeat)).toBeGreaterThan(0);
    const get = { method: "GET", route: "/api/v1/panel/licenses/:id", status: "200" };
    expect(sample(text, "licensing_http_requests_total", get)).toBe(1);
    // The route's template, never the raw path: no id, no key reaches a label.
    expect(text).not.toContain(license.id);
    expect(text).not.toContain(license.licenseKey);
    expect(
      sample(text, "licensing_http_requests_total", {
        method: "POST",
        route: "/api/v1/panel/licenses",
        status: "201",
      }),
    ).toBe(1);
    expect(
      sample(text, "licensing_http_requests_total", { method: "GET", route: "/trpc/auth.me", status: "401" }),
    ).toBe(1);
    expect(
      sample(text, "licensing_http_requests_total", {
        method: "GET",
        route: "/api/v1/panel/*",
        status: "404",
      }),
    ).toBe(1);
    expect(
      sample(text, "licensing_http_requests_total", { method: "GET", route: "/metrics", status: "401" }),
    ).toBe(3);

    // Jobs: runs, durations and the time since the last success, on the service's clock.
    expect(sample(text, "licensing_job_duration_seconds_count", { job: "license-expiry" })).toBe(1);
    expect(sample(text, "licensing_job_lag_seconds", { job: "license-expiry" })).toBe(0);

    // The natural batch of the one heartbeat.
    expect(sample(text, "licensing_batch_size_count", { writer: "heartbeats" })).toBe(1);
    expect(sample(text, "licensing_batch_size_bucket", { writer: "heartbeats", le: "1" })).toBe(1);

    // The webhook queue: the failed delivery is scheduled for its retry.
    expect(sample(text, "licensing_webhook_queue_depth", { state: "scheduled" })).toBe(1);
    expect(sample(text, "licensing_webhook_queue_depth", { state: "due" })).toBe(0);
    expect(sample(text, "licensing_webhook_oldest_due_seconds")).toBe(0);

    // The process (prom-client's default metrics) and, on PostgreSQL, the pools.
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    const pool = sample(text, "licensing_db_pool_connections", { pool: "main", state: "total" });
    if (database.kind === "postgres") expect(pool).toBeGreaterThan(0);
    else expect(pool).toBeUndefined();

    // Ninety seconds later the retry is thirty seconds overdue, and the sweeper's last success as old.
    clock.advance(MINUTE + 30_000);
    text = await scrape();
    expect(sample(text, "licensing_webhook_queue_depth", { state: "due" })).toBe(1);
    expect(sample(text, "licensing_webhook_oldest_due_seconds")).toBe(30);
    expect(sample(text, "licensing_job_lag_seconds", { job: "license-expiry" })).toBe(90);

    server.workers.wake("webhook-deliveries");
    await hooks.waitFor(2);
    await vi.waitFor(
      async () => {
        text = await scrape();
        expect(sample(text, "licensing_webhook_deliveries_total", { outcome: "succeeded" })).toBe(1);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(sample(text, "licensing_webhook_queue_depth", { state: "due" })).toBe(0);
    expect(sample(text, "licensing_webhook_queue_depth", { state: "scheduled" })).toBe(0);
  }, 60_000);

  it("keeps each server's figures apart in one process", async () => {
    // Started only now: on PostgreSQL its webhook dispatcher would take deliveries the test above counts.
    other = await start();
    const text = await scrape(other);
    expect(
      sample(text, "licensing_http_requests_total", {
        method: "POST",
        route: "/api/v1/client/heartbeat",
        status: "200",
      }),
    ).toBeUndefined();
    expect(sample(text, "licensing_batch_size_count", { writer: "heartbeats" })).toBeUndefined();
  });

  it("answers metrics, not the admin app; paths outside the app's pages get a 404, its pages the app", async () => {
    for (const path of ["/metrics2", "/foo.php", "/.env", "/api/v1/unknown", "/wp-login.php"]) {
      const res = await fetch(`${server.url}${path}`, { headers: HTML });
      expect(res.status, path).toBe(404);
      expect(await res.json(), path).toMatchObject({ code: "route.not_found", status: 404 });
    }
    for (const path of ["/", "/licenses", "/sign-in?next=/audit"]) {
      const res = await fetch(`${server.url}${path}`, { headers: HTML });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain("<title>admin</title>");
    }
    const text = await scrape();
    expect(
      sample(text, "licensing_http_requests_total", { method: "GET", route: "(unmatched)", status: "404" }),
    ).toBe(5);
    expect(
      sample(text, "licensing_http_requests_total", { method: "GET", route: "(admin page)", status: "200" }),
    ).toBe(3);
  });
});
