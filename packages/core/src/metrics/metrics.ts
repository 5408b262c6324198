import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from "prom-client";
import type { Clock } from "../clock.ts";

/**
 * The service's Prometheus metrics (decision 0054; every name is listed in docs/operations.md, "Metrics").
 * One registry per `Deps`, never prom-client's global one: two servers in one process (tests, the
 * simulator) count apart. The hot path records through children cached per label set, so a request costs
 * a map lookup, a counter increment and a histogram observation.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One finished HTTP request: its route template (never the raw path), method, status and duration. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One run of background job `job`. */
  jobRun(job: string, outcome: "ok" | "error", seconds: number, rows: number): void;
  /** Webhook delivery attempts by what became of the delivery. */
  webhookDelivery(outcome: "succeeded" | "retrying" | "failed"): void;
  /** A natural batch (decision 0008) written by `writer`, of `size` items. */
  batch(writer: "heartbeats" | "lease-renewals", size: number): void;
  /** What the gauges read at scrape time; each is optional (an embedded database has no pool). */
  readonly sources: MetricSources;
  /** Adds prom-client's process metrics (memory, CPU, event loop lag, GC, handles) to this registry. */
  collectProcessMetrics(): void;
}

export interface WebhookQueueFigures {
  due: number;
  scheduled: number;
  oldestDueSeconds: number;
}

export interface PoolFigures {
  pool: string;
  total: number;
  idle: number;
  waiting: number;
}

export interface MetricSources {
  webhookQueue?: () => Promise<WebhookQueueFigures>;
  pools?: () => PoolFigures[];
}

const PREFIX = "licensing_";
// Request latencies: the client API answers in about a millisecond, the panel's heavier calls in tens to
// hundreds, webhooks' receivers up to the 30-second timeout.
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];
const BATCH_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500];

export function createMetrics(clock: Clock): Metrics {
  const registry = new Registry();
  // The request series are the one hot-path metric, so they are kept in plain numbers (about 20 ns a
  // request) rather than prom-client's Counter and Histogram (which hash their labels on every call, even
  // through a child), and handed to the registry in its own format when scraped.
  const series = new Map<string, RequestSeries>();
  registerRequestMetrics(registry, series);
  const jobRuns = new Counter({
    name: `${PREFIX}job_runs_total`,
    help: "Runs of a background job, by job and outcome (ok or error)",
    labelNames: ["job", "outcome"] as const,
    registers: [registry],
  });
  const jobDuration = new Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: "Duration of a background job's runs",
    labelNames: ["job"] as const,
    buckets: JOB_BUCKETS,
    registers: [registry],
  });
  const jobRows = new Counter({
    name: `${PREFIX}job_rows_total`,
    help: "Rows (licenses, activations, deliveries, partitions…) a background job handled",
    labelNames: ["job"] as const,
    registers: [registry],
  });
  const lastSuccess = new Map<string, number>();
  const jobLastSuccess = new Gauge({
    name: `${PREFIX}job_last_success_timestamp_seconds`,
    help: "When a background job's last successful run ended (Unix seconds)",
    labelNames: ["job"] as const,
    registers: [registry],
  });
  new Gauge({
    name: `${PREFIX}job_lag_seconds`,
    help: "Seconds since a background job's last successful run ended (grows while it fails or hangs)",
    labelNames: ["job"] as const,
    registers: [registry],
    collect() {
      const now = clock.now().getTime();
      for (const [job, at] of lastSuccess) this.set({ job }, Math.max(0, (now - at) / 1000));
    },
  });
  const deliveries = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: "Webhook delivery attempts, by outcome: succeeded, retrying (failed, another attempt scheduled) or failed (given up)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  // Read at scrape time from the sources; one read serves both webhook gauges (prom-client calls every
  // metric's collect in the same tick). A failed read leaves the gauges without a sample for that scrape.
  const sources: MetricSources = {};
  let queueRead: Promise<WebhookQueueFigures | undefined> | undefined;
  const readQueue = () =>
    (queueRead ??= (sources.webhookQueue?.() ?? Promise.resolve(undefined))
      .catch(() => undefined)
      .finally(() => (queueRead = undefined)));
  new Gauge({
    name: `${PREFIX}webhook_queue_depth`,
    help: "Pending webhook deliveries: due (to send now) or scheduled (a retry later)",
    labelNames: ["state"] as const,
    registers: [registry],
    async collect() {
      const figures = await readQueue();
      this.reset();
      if (!figures) return;
      this.set({ state: "due" }, figures.due);
      this.set({ state: "scheduled" }, figures.scheduled);
    },
  });
  new Gauge({
    name: `${PREFIX}webhook_oldest_due_seconds`,
    help: "How long the oldest due webhook delivery has waited (0 when none is due)",
    registers: [registry],
    async collect() {
      const figures = await readQueue();
      this.reset();
      if (figures) this.set(figures.oldestDueSeconds);
    },
  });
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "Database pool connections by pool (main, telemetry) and state (total, idle, waiting: queries queued for one); PostgreSQL only",
    labelNames: ["pool", "state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of sources.pools?.() ?? []) {
        this.set({ pool: p.pool, state: "total" }, p.total);
        this.set({ pool: p.pool, state: "idle" }, p.idle);
        this.set({ pool: p.pool, state: "waiting" }, p.waiting);
      }
    },
  });
  const batches = new Histogram({
    name: `${PREFIX}batch_size`,
    help: "Items per natural batch written (heartbeats, lease renewals)",
    labelNames: ["writer"] as const,
    buckets: BATCH_BUCKETS,
    registers: [registry],
  });
  const batchChildren = {
    heartbeats: batches.labels("heartbeats"),
    "lease-renewals": batches.labels("lease-renewals"),
  };

  return {
    registry,
    request(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let one = series.get(key);
      if (!one) {
        one = {
          labels: { method, route, status: String(status) },
          count: 0,
          sum: 0,
          buckets: new Array<number>(LATENCY_BUCKETS.length).fill(0),
        };
        series.set(key, one);
      }
      one.count++;
      one.sum += seconds;
      // Counted in the first bucket that holds it; cumulated when scraped.
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        if (seconds <= LATENCY_BUCKETS[i]!) {
          one.buckets[i]!++;
          break;
        }
      }
    },
    jobRun(job, outcome, seconds, rows) {
      jobRuns.inc({ job, outcome });
      jobDuration.observe({ job }, seconds);
      if (rows > 0) jobRows.inc({ job }, rows);
      if (outcome === "ok") {
        const at = clock.now().getTime();
        lastSuccess.set(job, at);
        jobLastSuccess.set({ job }, at / 1000);
      }
    },
    webhookDelivery(outcome) {
      deliveries.inc({ outcome });
    },
    batch(writer, size) {
      batchChildren[writer].observe(size);
    },
    sources,
    collectProcessMetrics() {
      collectDefaultMetrics({ register: registry });
    },
  };
}

interface RequestSeries {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Requests per bucket of LATENCY_BUCKETS, not cumulated (a slower one is only in `count`). */
  buckets: number[];
}

/** `licensing_http_requests_total` and `licensing_http_request_duration_seconds`, read from `series`. */
function registerRequestMetrics(registry: Registry, series: Map<string, RequestSeries>) {
  const counterName = `${PREFIX}http_requests_total`;
  const counterHelp = "HTTP requests answered, by method, route template and status code";
  registry.registerMetric({
    name: counterName,
    get: async () => ({
      name: counterName,
      help: counterHelp,
      type: "counter",
      aggregator: "sum",
      values: [...series.values()].map((s) => ({ labels: s.labels, value: s.count })),
    }),
  } as unknown as Metric);
  const histogramName = `${PREFIX}http_request_duration_seconds`;
  const histogramHelp =
    "Time from a request's arrival to the end of its answer, by method, route template and status code";
  registry.registerMetric({
    name: histogramName,
    get: async () => ({
      name: histogramName,
      help: histogramHelp,
      type: "histogram",
      aggregator: "sum",
      values: [...series.values()].flatMap((s) => {
        let cumulated = 0;
        return [
          ...LATENCY_BUCKETS.map((le, i) => {
            cumulated += s.buckets[i]!;
            return { metricName: `${histogramName}_bucket`, labels: { ...s.labels, le }, value: cumulated };
          }),
          { metricName: `${histogramName}_bucket`, labels: { ...s.labels, le: "+Inf" }, value: s.count },
          { metricName: `${histogramName}_sum`, labels: s.labels, value: s.sum },
          { metricName: `${histogramName}_count`, labels: s.labels, value: s.count },
        ];
      }),
    }),
  } as unknown as Metric);
}
