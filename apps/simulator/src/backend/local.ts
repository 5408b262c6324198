import { randomBytes } from "node:crypto";
import { createManualClock } from "@licensing/core";
import { createDatabase } from "@licensing/db";
import { startServer } from "@licensing/server";
import { parseEnv } from "@licensing/server/env";
import { serverJobs } from "@licensing/server/jobs";
import { pino, type Logger } from "pino";
import { LicenseActions, SigningKeys, type Backend } from "./backend.ts";
import { PanelApi } from "./panel-api.ts";

export interface LocalServerOptions {
  /** The server's log (default silent). */
  logger?: Logger;
}

const OPERATOR = { email: "sim-operator@example.com", password: randomBytes(12).toString("base64url") };
// A timer this long never fires in a run: the simulator runs the server's jobs itself as its clock moves.
const NEVER_MS = 2 ** 31 - 1;
const HOUR_MS = 3_600_000;
/**
 * The jobs every server runs, on the intervals of virtual time the simulator runs them at: the sweepers
 * the purges and the webhook poll once an hour (a real server sweeps every minute: a virtual month of that would cost tens
 * of thousands of sweeps), the analytics jobs once a day (they have work once a day). Decision 0022.
 */
const JOBS = serverJobs({
  sweepIntervalMs: HOUR_MS,
  purgeIntervalMs: HOUR_MS,
  webhookPollIntervalMs: HOUR_MS,
  analyticsIntervalMs: 24 * HOUR_MS,
});

/**
 * The real server in this process, composed as `apps/server` composes it (`startServer`), on an in-memory
 * PGlite, with a manual clock that the simulator moves: its `Deps.clock`, so the API, the markers and the
 * sweepers all read it. Then an operator makes a company, and an Admin token for it. Scenarios run on it
 * one after another, each from `prepare`, which makes the scenario's template.
 */
export async function startLocalServer(options: LocalServerOptions = {}): Promise<Backend> {
  const clock = createManualClock();
  const database = createDatabase();
  const env = parseEnv({
    PORT: "0",
    LICENSING_MASTER_KEY: randomBytes(32).toString("base64"),
    BOOTSTRAP_OPERATOR_EMAIL: OPERATOR.email,
    BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR.password,
    // A month of heartbeats passes in a second of real time: the per-minute limits would refuse them.
    RATE_LIMIT_CLIENT: "1000000000",
    RATE_LIMIT_PANEL: "1000000000",
    RATE_LIMIT_AUTH: "1000000000",
    LOG_LEVEL: "silent",
  });
  const server = await startServer(env, {
    clock,
    database,
    logger: options.logger ?? pino({ level: "silent" }),
    sweepIntervalMs: NEVER_MS,
  });
  try {
    const operator = new PanelApi(server.url, null);
    await operator.login(OPERATOR.email, OPERATOR.password);
    const company = await operator.post<{ id: string }>("/companies", {
      name: "Simulated customer",
      slug: "simulated-customer",
    });
    const token = await operator.post<{ secret: string }>("/api-tokens", {
      name: "licensing-sim",
      companyId: company.id,
    });
    const admin = new PanelApi(server.url, token.secret);
    /** When (virtual time) each job last ran in this scenario. */
    const lastRuns = new Map<string, number>();
    let templates = 0;
    let scenario: { licenses: LicenseActions; keys: SigningKeys } | null = null;
    const current = () => {
      if (!scenario) throw new Error("prepare() the server for a scenario first");
      return scenario;
    };
    return {
      kind: "local",
      url: server.url,
      async prepare({ start, heartbeatIntervalSeconds }) {
        lastRuns.clear();
        // One server serves the scenarios of a run one after another (a PGlite takes seconds to start):
        // each issues its own license from a template of its own, and the clock starts again at the
        // scenario's start. The interval is read from the config on every activation, so setting it here
        // is what the environment would do.
        clock.set(new Date(start));
        server.deps.config.licensing.heartbeatIntervalSeconds = heartbeatIntervalSeconds;
        const template = await operator.post<{ id: string }>("/templates", {
          name: `Simulated product ${++templates}`,
          productCode: `SIM-PRODUCT-${templates}`,
          defaultOfflineDays: 7,
          defaultValidityDays: 365,
        });
        scenario = {
          licenses: new LicenseActions(admin, company.id, template.id),
          keys: new SigningKeys(admin, template.id, operator),
        };
      },
      serverNow: () => clock.now().getTime(),
      advanceServer: (ms) => clock.advance(ms),
      async runJobs(all) {
        const now = clock.now().getTime();
        for (const job of JOBS) {
          if (!all && now - (lastRuns.get(job.id) ?? -Infinity) < job.intervalMs) continue;
          lastRuns.set(job.id, now);
          await job.handler(server.deps);
        }
      },
      get licenses() {
        return current().licenses;
      },
      get keys() {
        return current().keys;
      },
      async close() {
        await server.close();
        await database.close();
      },
    };
  } catch (error) {
    await server.close();
    await database.close();
    throw error;
  }
}
