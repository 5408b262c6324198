import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLicensedCompany, startTestApp, type TestApp } from "@licensing/api/testing";
import type { Backend } from "../backend/backend.ts";
import { startLocalServer } from "../backend/local.ts";
import { connectRemoteServer } from "../backend/remote.ts";
import { parseScenario } from "../scenario/parse.ts";
import { runScenario } from "./run-scenario.ts";
import type { ScenarioResult } from "./timeline.ts";

const DAY = 86_400_000;
const START = Date.parse("2026-01-01T00:00:00Z");

async function run(backend: Backend, yaml: string): Promise<ScenarioResult> {
  const scenario = parseScenario(yaml, "test.yaml");
  backend.prepare({ start: scenario.start, heartbeatIntervalSeconds: scenario.heartbeatInterval / 1000 });
  return runScenario(scenario, backend);
}

const rows = (result: ScenarioResult) =>
  result.events.map((e) => [e.elapsed / DAY, e.step, e.status, e.outcome]);

describe("runScenario against the in-process server", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startLocalServer();
  });
  afterAll(() => backend?.close());

  it("moves the server and the client on one clock: transitions at their exact times, sweeps on the way", async () => {
    const result = await run(
      backend,
      `name: offline window
license: { offlineDays: 3, validFor: 5d }
steps:
  - start
  - offline
  - advance 6d
  - expect status Expired
  - expect server.status Expired
`,
    );
    expect(result.ok).toBe(true);
    expect(result.mode).toBe("local");
    const transitions = result.events.filter((e) => e.kind === "transition");
    // At 5 days the token expires too, but the status is Expired already: no change to report.
    expect(transitions.map((e) => [e.at - START, e.step, e.reason])).toEqual([
      [3 * DAY, "Active → GracePeriod", "marker-expired"],
      [4 * DAY, "GracePeriod → Expired", "grace-ended"],
    ]);
    const advance = result.events.find((e) => e.step === "advance 6d")!;
    expect(advance.at).toBe(START + 6 * DAY);
    expect(advance.clockAt).toBe(advance.at);
    expect(advance.reason).toBe("token-expired");
    expect(advance.requests?.failed).toBeGreaterThan(0);
    expect(advance.requests?.ok).toBe(0);
    // The server's own clock moved: its sweeper expired the license on the 5th day.
    expect(backend.serverNow()).toBe(START + 6 * DAY);
  });

  it("a failed expectation fails the scenario and the steps after it still run", async () => {
    const result = await run(
      backend,
      `name: wrong expectation
steps:
  - start
  - expect status GracePeriod
  - advance 1h
  - expect status Active
`,
    );
    expect(result.ok).toBe(false);
    expect(result.failures).toBe(1);
    expect(result.error).toBeNull();
    expect(rows(result).slice(1)).toEqual([
      [0, "start", "Active", "ok"],
      [0, "expect status GracePeriod", "Active", "failed"],
      [1 / 24, "advance 1h", "Active", "ok"],
      [1 / 24, "expect status Active", "Active", "ok"],
    ]);
    expect(result.events[2]!.message).toBe("expected GracePeriod, got Active (marker-valid)");
  });

  it("a step that cannot run stops the scenario with the reason", async () => {
    const result = await run(
      backend,
      `name: heartbeat first
steps:
  - heartbeat
  - start
`,
    );
    expect(result.ok).toBe(false);
    expect(result.error).toBe("line 3: heartbeat: simulator.step: no application is running: start it first");
    expect(result.events.map((e) => e.step)).toEqual([
      expect.stringMatching(/^issue license SVC-/),
      "heartbeat",
    ]);
  });

  it("set-clock moves only this machine's clock; timers do not fire", async () => {
    const result = await run(
      backend,
      `name: skew
steps:
  - start
  - set-clock +2h
  - expect details.lastError null
`,
    );
    const skew = result.events.find((e) => e.step === "set-clock +2h")!;
    expect(skew.clockAt - skew.at).toBe(2 * 3_600_000);
    expect(skew.requests).toBeNull();
    expect(result.ok).toBe(true);
  });

  it("a second client on another machine: its own files, network and clock; its rows and transitions name it", async () => {
    const result = await run(
      backend,
      `name: two machines
heartbeatInterval: 1h
machine: office-pc
license: { offlineDays: 1, limits: { maxSeats: 2 } }
steps:
  - start
  - on home-laptop start
  - on home-laptop offline
  - on home-laptop set-clock +1h
  - change-component disk-id
  - advance 1d
  - on home-laptop expect status GracePeriod
  - expect status Active
  - expect seats 2
  - on office-pc expect status Active
`,
    );
    expect(result.ok).toBe(true);
    const row = (step: string) => result.events.find((e) => e.step === step)!;
    expect(row("start").machine).toBeNull();
    expect(row("on home-laptop start")).toMatchObject({ machine: "home-laptop", status: "Active" });
    expect(row("on home-laptop set-clock +1h").clockAt - row("on home-laptop set-clock +1h").at).toBe(
      3_600_000,
    );
    expect(row("change-component disk-id").message).toMatch(
      /^disk-id id:ata-simulated_ssd_[0-9a-f]{12} → id:ata-simulated_ssd_[0-9a-f]{12}; seen at the next start$/,
    );
    // The laptop's marker, issued at the start and never renewed offline, expires after a day of the
    // laptop's clock, an hour fast: 23 hours of true time. The office PC's is renewed by its heartbeats.
    const transitions = result.events.filter((e) => e.kind === "transition");
    expect(transitions.map((e) => [e.at - START, e.machine, e.step])).toEqual([
      [DAY - 3_600_000, "home-laptop", "home-laptop: Active → GracePeriod"],
    ]);
    // \`on\` the machine the main program runs on is the main program.
    expect(row("on office-pc expect status Active").machine).toBeNull();
  });

  it("steps on machines that cannot run say why", async () => {
    const stops = async (steps: string[]) =>
      (
        await run(
          backend,
          `name: x\nmachine: office-pc\nsteps:\n${steps.map((s) => `  - ${s}`).join("\n")}\n`,
        )
      ).error;
    expect(await stops(["start", "reinstall"])).toBe(
      "line 5: reinstall: simulator.step: the application is running: stop it first (a reinstall replaces the system under it)",
    );
    expect(await stops(["on home-laptop start", "use-machine home-laptop"])).toBe(
      "line 5: use-machine home-laptop: simulator.step: home-laptop runs a program of its own (on home-laptop …): one program per machine",
    );
    expect(await stops(["start", "deactivate-machine lab-pc"])).toBe(
      "line 5: deactivate-machine lab-pc: simulator.step: listMachines() shows 0 machines named lab-pc: office-pc",
    );
    expect(await stops(["reset-activation"])).toBe(
      "line 4: reset-activation: simulator.step: the panel lists 0 live activations of office-pc: nothing to reset",
    );
    expect(
      await stops([
        "remove-component machine-id",
        "remove-component mac-address",
        "remove-component host-name",
        "remove-component os-family",
      ]),
    ).toMatch(/^line 7: remove-component os-family: os-family is the last fingerprint source left/);
  });
});

describe("runScenario against a deployed server (--server-url)", () => {
  let app: TestApp;
  let backend: Backend;
  beforeAll(async () => {
    app = await startTestApp();
    const operator = await app.client({ signIn: true });
    const target = await createLicensedCompany(operator);
    const token = await operator.api.apiTokens.create({ body: { name: "sim", companyId: target.companyId } });
    // The test app's clock is manual; a deployed server's is real.
    app.clock.set(new Date());
    backend = await connectRemoteServer({
      url: app.url,
      token: token.body.secret,
      templateId: target.templateId,
    });
  });
  afterAll(() => app?.close());

  it("moves only the client's clock, and only while the client cannot reach the server", async () => {
    // Against a deployed server the true time is the wall clock. The advance's true time falls between
    // readings taken around the run (the simulator did not move it) while the client's clock is a day
    // ahead: an order of readings, not a duration.
    const before = Date.now();
    const result = await run(
      backend,
      `name: remote
license: { offlineDays: 1 }
steps:
  - start
  - offline
  - advance 1d
  - expect status GracePeriod
  - online
  - advance 1h
  - expect status GracePeriod
`,
    );
    const after = Date.now();
    expect(result.mode).toBe("remote");
    const offlineAdvance = result.events.find((e) => e.step === "advance 1d")!;
    expect(offlineAdvance.clockAt - offlineAdvance.at).toBeGreaterThanOrEqual(DAY);
    expect(offlineAdvance.at).toBeGreaterThanOrEqual(before);
    expect(offlineAdvance.at).toBeLessThanOrEqual(after);
    expect(result.events.find((e) => e.step === "expect status GracePeriod")!.outcome).toBe("ok");
    const refused = result.events.find((e) => e.step === "advance 1h")!;
    expect(refused.outcome).toBe("refused");
    expect(refused.message).toMatch(/refused against --server-url: while the client is online/);
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^line 9: advance 1h: refused against --server-url/);
  });

  it("changes machines, resets from the panel and counts seats there too", async () => {
    const result = await run(
      backend,
      `name: remote heal
deactivateOnDispose: false
license: { limits: { maxSeats: 1 } }
steps:
  - start
  - stop
  - change-component mac-address
  - start
  - expect activation.healed true
  - expect seats 1
  - reset-activation
  - expect seats 0
  - heartbeat
  - expect details.reason reactivated
  - expect activations 2
`,
    );
    expect(result.events.filter((e) => e.outcome !== "ok")).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it("refuses the server's sweepers", async () => {
    const result = await run(backend, "name: sweep\nsteps:\n  - sweep\n");
    expect(result.error).toBe(
      "line 3: sweep: refused against --server-url: sweep needs the in-process server (run without --server-url)",
    );
  });
});
