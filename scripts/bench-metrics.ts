/**
 * What the request metrics add to each request (decision 0054): `metrics.request` with the route label,
 * as the request logger's finish handler calls it, timed over many calls in this process.
 *   npx tsx scripts/bench-metrics.ts
 */
import { createMetrics, systemClock } from "@licensing/core";
import { Counter, Histogram, Registry } from "prom-client";

const metrics = createMetrics(systemClock);
const routes = ["/api/v1/client/heartbeat", "/api/v1/client/activate", "/api/v1/panel/licenses/:id"];
const N = 2_000_000;
const run = () => {
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++)
    metrics.request("POST", routes[i % 3]!, i % 50 === 0 ? 429 : 200, 0.0004 + (i % 7) * 1e-4);
  return Number(process.hrtime.bigint() - started) / N;
};
run(); // warm-up
const samples = [run(), run(), run()].sort((a, b) => a - b);
console.log(`metrics.request: median ${samples[1]!.toFixed(0)} ns per request (${N} calls x 3)`);
// The same through prom-client's own Counter and Histogram children, for comparison (decision 0054).
const registry = new Registry();
const labelNames = ["method", "route", "status"] as const;
const counter = new Counter({ name: "c", help: "c", labelNames, registers: [registry] });
const histogram = new Histogram({ name: "h", help: "h", labelNames, registers: [registry] });
const children = new Map<string, [Counter.Internal, Histogram.Internal<(typeof labelNames)[number]>]>();
const viaPromClient = () => {
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const route = routes[i % 3]!;
    const status = i % 50 === 0 ? "429" : "200";
    const key = `POST ${status} ${route}`;
    let child = children.get(key);
    if (!child)
      children.set(
        key,
        (child = [counter.labels("POST", route, status), histogram.labels("POST", route, status)]),
      );
    child[0].inc();
    child[1].observe(0.0004 + (i % 7) * 1e-4);
  }
  return Number(process.hrtime.bigint() - started) / N;
};
viaPromClient();
const baseline = [viaPromClient(), viaPromClient(), viaPromClient()].sort((a, b) => a - b);
console.log(`prom-client Counter + Histogram children: median ${baseline[1]!.toFixed(0)} ns per request`);
const scrapeStarted = process.hrtime.bigint();
const text = await metrics.registry.metrics();
console.log(
  `scrape: ${(Number(process.hrtime.bigint() - scrapeStarted) / 1e6).toFixed(1)} ms, ${text.length} bytes`,
);
