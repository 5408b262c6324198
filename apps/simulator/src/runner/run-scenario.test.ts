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
  await backend.prepare({
    start: scenario.start,
    heartbeatIntervalSeconds: scenario.heartbeatInterval / 1000,
  });
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

describe("runScenario: crashes, sleeping computers and leases", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startLocalServer();
  });
  afterAll(() => backend?.close());

  it("a crashed program releases nothing and sets no timer; a sleeping computer makes no request until it wakes", async () => {
    const result = await run(
      backend,
      `name: crash and sleep
machine: office-pc
license: { limits: { maxSeats: 2 } }
steps:
  - start
  - on home-laptop start
  - expect seats 2
  - crash
  - expect seats 2
  - on home-laptop expect requests 1
  - on home-laptop sleep
  - advance 3h
  - on home-laptop expect requests 0
  - expect requests 1 # its activation; nothing since it crashed
  - on home-laptop wake
  - advance 1h
  - start
  - expect seats 2
`,
    );
    expect(result.error).toBeNull();
    expect(result.events.filter((e) => e.outcome !== "ok").map((e) => [e.step, e.message])).toEqual([]);
    const row = (step: string) => result.events.find((e) => e.step === step)!;
    expect(row("crash").message).toBe("killed while Active: nothing released, nothing deactivated");
    expect(row("on home-laptop wake").message).toBe("slept 3h; its timers run again, each 3h late");
    // Awake again, the laptop heartbeats (four times an hour): its requests are counted in the advance.
    expect(row("advance 1h").requests?.ok).toBeGreaterThanOrEqual(3);
  });

  it("floating seats: a row when a seat is taken or lost, the panel's leases counted, a refused borrow is the server's error", async () => {
    const result = await run(
      backend,
      `name: floating
machine: office-a
license: { seatModel: floating, leaseSeconds: 300, limits: { maxSeats: 1 } }
steps:
  - start
  - expect leases 1
  - on office-b start
  - on office-b expect holders 1
  - force-release
  - on office-b restart
  - on office-b expect status Active
  - advance 2m
  - expect holders 1
  - on office-b borrow 1d
`,
    );
    expect(result.error).toBe(
      "line 14: on office-b borrow 1d: lease.borrow_not_allowed: The license allows no borrowing (maxBorrowDays is 0)",
    );
    expect(result.events.filter((e) => e.outcome === "failed")).toEqual([]);
    const seatRows = result.events.filter((e) => e.kind === "transition" && e.step.includes("seat"));
    // office-b took its seat in a step (start), office-a lost its own on the way, at its renew (410).
    expect(seatRows.map((e) => [e.machine, e.step.split(":")[0]])).toEqual([[null, "seat none"]]);
  });

  it("steps of a sleeping computer's program wait for wake; crash and force-release say what they lack", async () => {
    const stops = async (steps: string[]) =>
      (
        await run(
          backend,
          `name: x\nmachine: office-pc\nlicense: { seatModel: floating }\nsteps:\n${steps.map((s) => `  - ${s}`).join("\n")}\n`,
        )
      ).error;
    expect(await stops(["start", "sleep", "heartbeat"])).toBe(
      "line 7: heartbeat: simulator.step: office-pc is asleep: wake it first (heartbeat needs it running)",
    );
    expect(await stops(["sleep", "sleep"])).toBe(
      "line 6: sleep: simulator.step: office-pc is asleep already",
    );
    expect(await stops(["on lab-pc wake"])).toBe(
      "line 5: on lab-pc wake: simulator.step: lab-pc is not asleep",
    );
    expect(await stops(["crash"])).toBe(
      "line 5: crash: simulator.step: no application is running: start it first",
    );
    expect(await stops(["force-release lab-pc"])).toBe(
      "line 5: force-release lab-pc: simulator.step: the panel lists 0 live leases of lab-pc (0 in all): nothing to release",
    );
  });
});

describe("runScenario: air-gapped activation, revocation and the key chain", () => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startLocalServer();
  });
  afterAll(() => backend?.close());

  const row = (result: ScenarioResult, step: string) => result.events.find((e) => e.step === step)!;

  it("a refused response is the step's result, with the reason; requests are counted per machine", async () => {
    const result = await run(
      backend,
      `name: other machine
machine: plant-pc
steps:
  - offline
  - start
  - offline-request
  - offline-respond 30
  - on spare-pc offline
  - on spare-pc start
  - on spare-pc offline-apply from plant-pc
  - on spare-pc expect offline.refused other-machine
  - on spare-pc expect requests 1
  - offline-apply
  - expect offline.refused null
  - expect details.certificateExpiresAt 2026-01-31T00:00:00Z
  - expect requests 1
  - advance 3d
  - expect requests 0
`,
    );
    expect(result.events.filter((e) => e.outcome !== "ok")).toEqual([]);
    expect(row(result, "offline-request").message).toMatch(/^a request block of \d+ characters$/);
    expect(Number(/(\d+) characters/.exec(row(result, "offline-request").message!)![1])).toBeLessThanOrEqual(
      1200,
    );
    expect(row(result, "on spare-pc offline-apply from plant-pc")).toMatchObject({
      machine: "spare-pc",
      outcome: "ok",
      status: "Expired",
      message: expect.stringMatching(/^refused \(other-machine\): /),
    });
    expect(row(result, "offline-apply")).toMatchObject({
      status: "Active",
      reason: "offline-activated",
      message: "applied: Active until 2026-01-31T00:00:00.000Z",
    });
    expect(row(result, "advance 3d").requests?.failed).toBeGreaterThan(0); // the spare PC's retries
    expect(result.ok).toBe(true);
  });

  it("offline steps without their block say which step makes it", async () => {
    const stops = async (steps: string[]) =>
      (await run(backend, `name: x\nmachine: plant-pc\nsteps:\n${steps.map((s) => `  - ${s}`).join("\n")}\n`))
        .error;
    expect(await stops(["start", "offline-respond"])).toBe(
      "line 5: offline-respond: simulator.step: this machine has no request: offline-request first",
    );
    expect(await stops(["start", "offline-apply from spare-pc"])).toBe(
      "line 5: offline-apply from spare-pc: simulator.step: spare-pc has no response: on spare-pc offline-respond first",
    );
    expect(await stops(["offline-hand-in-receipt"])).toBe(
      "line 4: offline-hand-in-receipt: simulator.step: this machine has no receipt: offline-deactivate first",
    );
    expect(await stops(["retire-key"])).toBe(
      "line 4: retire-key: simulator.step: the template has one key, its root, which is Active: rotate-key first",
    );
    expect(await stops(["start", "offline-deactivate"])).toMatch(
      /^line 5: offline-deactivate: This machine holds no offline activation/,
    );
  });

  it("a forged revocation is answered by the network, counted as failed, and changes nothing", async () => {
    const result = await run(
      backend,
      `name: forged
license: { revocation: immediate }
steps:
  - start
  - forge-revocation
  - heartbeat
  - expect status Active
  - expect details.lastError.code license.revoked
  - apply-revocation-list forged
  - expect status Active
  - online
  - revoke
  - apply-revocation-list
  - expect status Revoked
`,
    );
    expect(result.events.filter((e) => e.outcome !== "ok")).toEqual([]);
    expect(row(result, "heartbeat")).toMatchObject({
      message: "heartbeat() → false",
      requests: { ok: 0, refused: 0, failed: 1 },
    });
    expect(row(result, "apply-revocation-list forged").message).toBe(
      "a forged list: applyRevocationList() → false",
    );
    expect(row(result, "apply-revocation-list").message).toBe(
      "the template's list: applyRevocationList() → true",
    );
  });

  it("configures the program with the template's root key, not the issue answer's: it follows the chain", async () => {
    // The template's key was rotated twice before the license was issued: the issue answer's publicKey is
    // key 3's. A program built with it would not verify a license signed by key 4, certified by the root.
    const scenario = parseScenario(
      `name: issued after two rotations
steps:
  - start
  - expect signer license 3
  - expect signer marker 3
  - rotate-key
  - transfer
  - download-license
  - restart
  - expect status Active
  - expect signer license 4
  - expect signer marker 4
`,
      "test.yaml",
    );
    await backend.prepare({ start: scenario.start, heartbeatIntervalSeconds: 900 });
    expect(await backend.keys.rotate()).toBe(2);
    expect(await backend.keys.rotate()).toBe(3);
    const result = await runScenario(scenario, backend);
    expect(result.events.filter((e) => e.outcome !== "ok")).toEqual([]);
    expect(row(result, "rotate-key").message).toBe("key 4 is Active, key 3 Inactive");
    expect(row(result, "restart")).toMatchObject({ status: "Active", reason: "marker-valid" });
  });

  it("each scenario has a template of its own: a rotation does not reach the next scenario", async () => {
    const rotated = await run(backend, "name: rotates\nsteps:\n  - rotate-key\n  - rotate-key\n");
    expect(rotated.ok).toBe(true);
    const next = await run(backend, "name: next\nsteps:\n  - start\n  - expect signer license root\n");
    expect(next.ok).toBe(true);
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

  it("a sleeping computer does not hold time still: its program asks the server nothing", async () => {
    const result = await run(
      backend,
      `name: remote sleep
steps:
  - start
  - sleep
  - advance 2h
  - expect requests 1
  - wake
  - advance 1h
`,
    );
    expect(result.events.find((e) => e.step === "advance 2h")!.outcome).toBe("ok");
    expect(result.events.find((e) => e.step === "expect requests 1")!.outcome).toBe("ok");
    expect(result.error).toMatch(
      /^line 8: advance 1h: refused against --server-url: while the client is online/,
    );
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

  it("refuses the server's sweepers and the template's keys", async () => {
    const result = await run(backend, "name: sweep\nsteps:\n  - sweep\n");
    expect(result.error).toBe(
      "line 3: sweep: refused against --server-url: sweep needs the in-process server (run without --server-url)",
    );
    expect((await run(backend, "name: keys\nsteps:\n  - rotate-key\n")).error).toBe(
      "line 3: rotate-key: refused against --server-url: rotate-key needs the in-process server (run without --server-url)",
    );
  });

  it("activates air-gapped, deactivates, and applies the revocation list there too", async () => {
    const result = await run(
      backend,
      `name: remote air gap
machine: plant-pc
license: { revocation: immediate, limits: { maxSeats: 1 } }
steps:
  - offline
  - start
  - offline-request
  - offline-respond 30
  - offline-apply
  - expect status Active
  - expect seats 1
  - offline-deactivate
  - offline-hand-in-receipt
  - expect seats 0
  - offline-request
  - offline-respond
  - offline-apply
  - expect status Active
  - expect signer license root
  - revoke
  - apply-revocation-list
  - expect status Revoked
`,
    );
    expect(result.events.filter((e) => e.outcome !== "ok")).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
