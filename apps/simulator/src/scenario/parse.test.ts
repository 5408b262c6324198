import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "./duration.ts";
import { parseScenario, ScenarioError } from "./parse.ts";
import { MachineFingerprint, parseStep, STEP_SPECS } from "./steps.ts";

const DAY = 86_400_000;

describe("parseDuration", () => {
  it("reads units and signed sums", () => {
    expect(parseDuration("3d")).toBe(3 * DAY);
    expect(parseDuration("90m")).toBe(90 * 60_000);
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("1w")).toBe(7 * DAY);
    expect(parseDuration("1d12h")).toBe(1.5 * DAY);
    expect(parseDuration("24h+1s")).toBe(DAY + 1000);
    expect(parseDuration("7d-1s")).toBe(7 * DAY - 1000);
    expect(parseDuration("-2d")).toBe(-2 * DAY);
    expect(parseDuration("7d - 1s")).toBe(7 * DAY - 1000);
  });

  it("refuses what is not a duration", () => {
    for (const text of ["", "3", "d", "3 days", "3x", "1d*2", "1d--1s"])
      expect(parseDuration(text)).toBeNull();
  });

  it("formats back", () => {
    expect(formatDuration(3 * DAY + 4 * 3_600_000 + 1000)).toBe("3d4h1s");
    expect(formatDuration(-1000)).toBe("-1s");
    expect(formatDuration(0)).toBe("0s");
  });
});

describe("parseStep", () => {
  it("reads every kind of step", () => {
    expect(parseStep("advance 3d")).toEqual({ kind: "advance", by: 3 * DAY });
    expect(parseStep("advance to marker-exp -1s")).toEqual({
      kind: "advance-to",
      anchor: "marker-exp",
      offset: -1000,
    });
    expect(parseStep("advance to grace-end")).toEqual({ kind: "advance-to", anchor: "grace-end", offset: 0 });
    expect(parseStep("server-errors 503")).toEqual({
      kind: "server-errors",
      status: 503,
      retryAfterMs: null,
    });
    expect(parseStep("server-errors 429 retry-after 30s")).toEqual({
      kind: "server-errors",
      status: 429,
      retryAfterMs: 30_000,
    });
    expect(parseStep("set-clock -2d")).toEqual({ kind: "set-clock", to: { offset: -2 * DAY } });
    expect(parseStep("set-clock 2026-03-01T00:00:00Z")).toEqual({
      kind: "set-clock",
      to: { at: Date.parse("2026-03-01T00:00:00Z") },
    });
    expect(parseStep("set-clock reset")).toEqual({ kind: "set-clock", to: "reset" });
    expect(parseStep("rebind new-laptop fixed")).toEqual({
      kind: "rebind",
      machine: "new-laptop",
      binding: "fixed",
    });
    expect(parseStep("rebind none")).toEqual({ kind: "rebind", machine: null, binding: null });
    expect(parseStep("revoke Chargeback on card")).toEqual({ kind: "revoke", reason: "Chargeback on card" });
    expect(parseStep("  restart  ")).toEqual({ kind: "restart" });
  });

  it("reads expectations and their values as JSON or words", () => {
    expect(parseStep("expect status GracePeriod")).toEqual({
      kind: "expect",
      target: { kind: "status", status: "GracePeriod" },
    });
    expect(parseStep("expect no-feature beta")).toEqual({
      kind: "expect",
      target: { kind: "feature", name: "beta", present: false },
    });
    expect(parseStep("expect config limits.maxSeats 3")).toEqual({
      kind: "expect",
      target: { kind: "value", source: "config", path: "limits.maxSeats", value: 3 },
    });
    expect(parseStep("expect details.lastError null")).toEqual({
      kind: "expect",
      target: { kind: "value", source: "details", path: "lastError", value: null },
    });
    expect(parseStep("expect details.reason marker-expired")).toEqual({
      kind: "expect",
      target: { kind: "value", source: "details", path: "reason", value: "marker-expired" },
    });
    expect(parseStep("expect server.status Revoked")).toEqual({
      kind: "expect",
      target: { kind: "value", source: "server", path: "status", value: "Revoked" },
    });
  });

  it("reads the steps that change a machine, act on its activation and run a second client", () => {
    expect(parseStep("change-component disk-id")).toEqual({
      kind: "change-component",
      component: "disk-id",
      value: null,
    });
    expect(parseStep("change-component mac-address 3c:22:fb:00:00:01")).toEqual({
      kind: "change-component",
      component: "mac-address",
      value: "3c:22:fb:00:00:01",
    });
    expect(parseStep("add-component memory-size 32gib")).toEqual({
      kind: "add-component",
      component: "memory-size",
      value: "32gib",
    });
    expect(parseStep("remove-component host-name")).toEqual({
      kind: "remove-component",
      component: "host-name",
    });
    expect(parseStep("upgrade-os")).toEqual({ kind: "upgrade-os", major: null });
    expect(parseStep("upgrade-os 14")).toEqual({ kind: "upgrade-os", major: 14 });
    expect(parseStep("reinstall")).toEqual({ kind: "reinstall" });
    expect(parseStep("use-machine new-laptop")).toEqual({ kind: "use-machine", machine: "new-laptop" });
    expect(parseStep("reset-activation")).toEqual({ kind: "reset-activation", machine: null });
    expect(parseStep("reset-activation home-laptop")).toEqual({
      kind: "reset-activation",
      machine: "home-laptop",
    });
    expect(parseStep("reset-device-budget")).toEqual({ kind: "reset-device-budget" });
    expect(parseStep("deactivate-machine office-pc")).toEqual({
      kind: "deactivate-machine",
      machine: "office-pc",
    });
    expect(parseStep("on home-laptop start")).toEqual({
      kind: "on",
      machine: "home-laptop",
      step: { kind: "start" },
    });
    expect(parseStep("client B start")).toEqual({ kind: "on", machine: "B", step: { kind: "start" } });
    expect(parseStep("client B")).toBe("client: needs a machine and a step, e.g. on home-laptop start");
    expect(parseStep("on home-laptop expect details.reason seat-limit")).toEqual({
      kind: "on",
      machine: "home-laptop",
      step: {
        kind: "expect",
        target: { kind: "value", source: "details", path: "reason", value: "seat-limit" },
      },
    });
    expect(parseStep("on home-laptop change-component disk-id")).toMatchObject({
      step: { kind: "change-component", component: "disk-id" },
    });
    expect(parseStep("advance to retry-at -1s")).toEqual({
      kind: "advance-to",
      anchor: "retry-at",
      offset: -1000,
    });
    expect(parseStep("advance to next-heartbeat")).toEqual({
      kind: "advance-to",
      anchor: "next-heartbeat",
      offset: 0,
    });
  });

  it("reads the expectations of activations, seats and fingerprints", () => {
    expect(parseStep("expect activation.healed true")).toEqual({
      kind: "expect",
      target: { kind: "value", source: "activation", path: "healed", value: true },
    });
    expect(parseStep("expect seats 1")).toEqual({
      kind: "expect",
      target: { kind: "count", what: "seats", value: 1 },
    });
    expect(parseStep("expect activations 2")).toEqual({
      kind: "expect",
      target: { kind: "count", what: "activations", value: 2 },
    });
    expect(parseStep("expect heals 0")).toEqual({
      kind: "expect",
      target: { kind: "count", what: "heals", value: 0 },
    });
    expect(parseStep("expect server.hwFingerprint fingerprint(office-pc)")).toEqual({
      kind: "expect",
      target: {
        kind: "value",
        source: "server",
        path: "hwFingerprint",
        value: new MachineFingerprint("office-pc"),
      },
    });
  });

  it("reads the steps of air-gapped activation, revocation and the key chain", () => {
    expect(parseStep("offline-request")).toEqual({ kind: "offline-request" });
    expect(parseStep("offline-respond")).toEqual({ kind: "offline-respond", validDays: null });
    expect(parseStep("offline-respond 30")).toEqual({ kind: "offline-respond", validDays: 30 });
    expect(parseStep("offline-respond 30d")).toEqual({ kind: "offline-respond", validDays: 30 });
    expect(parseStep("offline-apply")).toEqual({ kind: "offline-apply", from: null });
    expect(parseStep("offline-apply from plant-pc")).toEqual({ kind: "offline-apply", from: "plant-pc" });
    expect(parseStep("offline-deactivate")).toEqual({ kind: "offline-deactivate" });
    expect(parseStep("offline-hand-in-receipt")).toEqual({ kind: "offline-hand-in-receipt", from: null });
    expect(parseStep("offline-hand-in-receipt from plant-pc")).toEqual({
      kind: "offline-hand-in-receipt",
      from: "plant-pc",
    });
    expect(parseStep("forge-revocation")).toEqual({ kind: "forge-revocation", forgery: "other-key" });
    expect(parseStep("forge-revocation unsigned")).toEqual({ kind: "forge-revocation", forgery: "unsigned" });
    expect(parseStep("apply-revocation-list")).toEqual({ kind: "apply-revocation-list", forged: false });
    expect(parseStep("apply-revocation-list forged")).toEqual({
      kind: "apply-revocation-list",
      forged: true,
    });
    expect(parseStep("rotate-key")).toEqual({ kind: "rotate-key" });
    expect(parseStep("retire-key")).toEqual({ kind: "retire-key", key: null });
    expect(parseStep("retire-key 2")).toEqual({ kind: "retire-key", key: 2 });
    expect(parseStep("retire-key root")).toEqual({ kind: "retire-key", key: 1 });
    expect(parseStep("advance to certificate-exp -1s")).toEqual({
      kind: "advance-to",
      anchor: "certificate-exp",
      offset: -1000,
    });
    expect(parseStep("on spare-pc offline-apply from plant-pc")).toEqual({
      kind: "on",
      machine: "spare-pc",
      step: { kind: "offline-apply", from: "plant-pc" },
    });
    expect(parseStep("expect requests 0")).toEqual({
      kind: "expect",
      target: { kind: "requests", value: 0 },
    });
    expect(parseStep("expect signer marker 3")).toEqual({
      kind: "expect",
      target: { kind: "signer", file: "marker", key: 3 },
    });
    expect(parseStep("expect signer license root")).toEqual({
      kind: "expect",
      target: { kind: "signer", file: "license", key: 1 },
    });
    expect(parseStep("expect offline.refused other-machine")).toEqual({
      kind: "expect",
      target: { kind: "value", source: "offline", path: "refused", value: "other-machine" },
    });
  });

  it("says what is wrong with the steps of air-gapped activation, revocation and the key chain", () => {
    expect(parseStep("offline-respond 0")).toBe(
      'offline-respond: takes an optional number of days from 1 to 36500, e.g. offline-respond 30, got "0"',
    );
    expect(parseStep("offline-respond 36501")).toMatch(/^offline-respond: takes an optional number of days/);
    expect(parseStep("offline-respond 2w")).toMatch(/^offline-respond: takes an optional number of days/);
    expect(parseStep("offline-apply plant-pc")).toBe("offline-apply: takes nothing or from <machine>");
    expect(parseStep("offline-hand-in-receipt from")).toBe(
      "offline-hand-in-receipt: takes nothing or from <machine>",
    );
    expect(parseStep("offline-request now")).toBe('offline-request: takes no arguments, got "now"');
    expect(parseStep("forge-revocation expired")).toBe(
      'forge-revocation: takes one of other-key, unsigned, got "expired"',
    );
    expect(parseStep("apply-revocation-list twice")).toBe(
      'apply-revocation-list: takes nothing or forged, got "twice"',
    );
    expect(parseStep("retire-key 0")).toBe(
      'retire-key: a key is root or its number (1 is the root, 2 the first rotation\'s), got "0"',
    );
    expect(parseStep("retire-key 2 3")).toBe('retire-key: takes nothing, root or a key\'s number, got "2 3"');
    expect(parseStep("rotate-key twice")).toBe('rotate-key: takes no arguments, got "twice"');
    expect(parseStep("on plant-pc rotate-key")).toBe("on: rotate-key is not a step of one machine's program");
    expect(parseStep("expect requests none")).toBe("expect: requests needs a count, e.g. expect requests 0");
    expect(parseStep("expect signer token 2")).toMatch(/^expect: signer needs license or marker and a key/);
    expect(parseStep("expect signer marker 0")).toMatch(/^expect: signer needs license or marker and a key/);
  });

  it("reads the steps of floating seats: crashes, sleeping computers, borrows, the panel's release", () => {
    expect(parseStep("crash")).toEqual({ kind: "crash" });
    expect(parseStep("sleep")).toEqual({ kind: "sleep" });
    expect(parseStep("wake")).toEqual({ kind: "wake" });
    expect(parseStep("on workstation-2 crash")).toEqual({
      kind: "on",
      machine: "workstation-2",
      step: { kind: "crash" },
    });
    expect(parseStep("on field-laptop sleep")).toMatchObject({ step: { kind: "sleep" } });
    expect(parseStep("on field-laptop wake")).toMatchObject({ step: { kind: "wake" } });
    expect(parseStep("borrow 7d")).toEqual({ kind: "borrow", for: 7 * DAY });
    expect(parseStep("borrow 1w+1d")).toEqual({ kind: "borrow", for: 8 * DAY });
    expect(parseStep("on field-laptop borrow 10d")).toMatchObject({
      step: { kind: "borrow", for: 10 * DAY },
    });
    expect(parseStep("on workstation-4 advance to retry-at +5s")).toEqual({
      kind: "on",
      machine: "workstation-4",
      step: { kind: "advance-to", anchor: "retry-at", offset: 5000 },
    });
    expect(parseStep("return-borrowed")).toEqual({ kind: "return-borrowed" });
    expect(parseStep("on field-laptop return-borrowed")).toMatchObject({ step: { kind: "return-borrowed" } });
    expect(parseStep("force-release")).toEqual({ kind: "force-release", machine: null });
    expect(parseStep("force-release workstation-1")).toEqual({
      kind: "force-release",
      machine: "workstation-1",
    });
    expect(parseStep("expect leases 3")).toEqual({
      kind: "expect",
      target: { kind: "count", what: "leases", value: 3 },
    });
    expect(parseStep("on workstation-4 expect holders 3")).toEqual({
      kind: "on",
      machine: "workstation-4",
      step: { kind: "expect", target: { kind: "holders", value: 3 } },
    });
    expect(parseStep("expect details.reason no-seat")).toEqual({
      kind: "expect",
      target: { kind: "value", source: "details", path: "reason", value: "no-seat" },
    });
  });

  it("says what is wrong with the steps of floating seats", () => {
    expect(parseStep("crash hard")).toBe('crash: takes no arguments, got "hard"');
    expect(parseStep("sleep 8h")).toBe('sleep: takes no arguments, got "8h"');
    expect(parseStep("wake up")).toBe('wake: takes no arguments, got "up"');
    expect(parseStep("borrow")).toBe("borrow: needs how long, e.g. borrow 7d, e.g. 3d, 90m, 7d-1s");
    expect(parseStep("borrow a-week")).toMatch(/^borrow: "a-week" is not a duration/);
    expect(parseStep("borrow -1d")).toBe("borrow: the borrow must end in the future");
    expect(parseStep("return-borrowed now")).toBe('return-borrowed: takes no arguments, got "now"');
    expect(parseStep("force-release a b")).toBe("force-release: takes at most one machine name");
    expect(parseStep("on a force-release")).toBe("on: force-release is not a step of one machine's program");
    expect(parseStep("expect leases some")).toBe("expect: leases needs a count, e.g. expect leases 1");
    expect(parseStep("expect holders -1")).toBe("expect: holders needs a count, e.g. expect holders 3");
  });

  it("says precisely what is wrong with them", () => {
    expect(parseStep("change-component gpu")).toBe(
      'change-component: the component must be one of machine-id, cpu-model, memory-size, disk-id, mac-address, host-name, os-family, got "gpu"',
    );
    expect(parseStep("change-component")).toBe(
      "change-component: needs a component and optionally its new value",
    );
    expect(parseStep("remove-component disk-id now")).toBe("remove-component: needs one component");
    expect(parseStep("upgrade-os next")).toBe('upgrade-os: takes an optional major version, got "next"');
    expect(parseStep("reinstall windows")).toBe('reinstall: takes no arguments, got "windows"');
    expect(parseStep("deactivate-machine")).toBe("deactivate-machine: needs one machine name");
    expect(parseStep("reset-activation a b")).toBe("reset-activation: takes at most one machine name");
    expect(parseStep("on home-laptop")).toBe("on: needs a machine and a step, e.g. on home-laptop start");
    expect(parseStep("on home-laptop advance 1d")).toBe("on: advance is not a step of one machine's program");
    expect(parseStep("on a on b start")).toBe("on: on is not a step of one machine's program");
    expect(parseStep("on home-laptop strat")).toMatch(/^on: unknown step "strat"/);
    expect(parseStep("on home-laptop advance to lunch")).toMatch(/^on: advance: advance to needs one of/);
    expect(parseStep("expect seats many")).toBe("expect: seats needs a count, e.g. expect seats 1");
    expect(parseStep("expect heals -1")).toBe("expect: heals needs a count, e.g. expect heals 1");
  });

  it("says precisely what is wrong", () => {
    expect(parseStep("advnce 3d")).toBe('unknown step "advnce" (licensing-sim --help lists the steps)');
    expect(parseStep("advance")).toBe("advance: needs a duration, e.g. 3d, 90m, 7d-1s");
    expect(parseStep("advance 3 days")).toMatch(/^advance: "3days" is not a duration/);
    expect(parseStep("advance -1d")).toMatch(/time only moves forward/);
    expect(parseStep("advance to lunch")).toMatch(/^advance: advance to needs one of marker-exp/);
    expect(parseStep("server-errors 404")).toBe('server-errors: needs a 5xx status or 429, got "404"');
    expect(parseStep("expect status Valid")).toMatch(/status must be one of Invalid, Active, GracePeriod/);
    expect(parseStep("expect usable maybe")).toBe('expect: usable must be true or false, got "maybe"');
    expect(parseStep("expect colour blue")).toBe('expect: cannot check "colour"');
    expect(parseStep("restart now")).toBe('restart: takes no arguments, got "now"');
    expect(parseStep("rebind a sometimes")).toMatch(/the mode must be one of none, fixed, firstActivation/);
    expect(parseStep("set-clock yesterday")).toMatch(/needs an ISO time/);
  });

  it("every step is documented with its usage", () => {
    for (const spec of STEP_SPECS) {
      expect(spec.usage.startsWith(spec.name)).toBe(true);
      expect(spec.summary.length).toBeGreaterThan(20);
    }
  });
});

describe("parseScenario", () => {
  const file = "s.yaml";

  it("reads the header with defaults and the steps with their lines", () => {
    const scenario = parseScenario(
      [
        "name: Offline",
        "license:",
        "  offlineDays: 3",
        "  features: [export]",
        "steps:",
        "  - start",
        "  - advance   3d",
        "  # a comment",
        "  - expect status Active",
      ].join("\n"),
      file,
    );
    expect(scenario).toMatchObject({
      file,
      name: "Offline",
      start: Date.parse("2026-01-01T00:00:00Z"),
      machine: "sim-machine-a",
      heartbeatInterval: 15 * 60_000,
      deactivateOnDispose: true,
      license: { offlineDays: 3, validFor: 365 * DAY, binding: "none", features: ["export"], trial: false },
    });
    expect(scenario.steps.map(({ text, line }) => [text, line])).toEqual([
      ["start", 6],
      ["advance 3d", 7],
      ["expect status Active", 9],
    ]);
  });

  const problem = (text: string) => {
    try {
      parseScenario(text, file);
    } catch (error) {
      expect(error).toBeInstanceOf(ScenarioError);
      return (error as ScenarioError).message;
    }
    throw new Error("no error");
  };

  it("names the file and line of a bad step", () => {
    expect(problem("name: x\nsteps:\n  - start\n  - advance soon\n")).toBe(
      's.yaml:4: advance: "soon" is not a duration (e.g. 3d, 90m, 24h+1s, 7d-1s)',
    );
    expect(problem("name: x\nsteps:\n  - start\n  - { expect: status }\n")).toBe(
      "s.yaml:4: each step is one line of text, e.g. - advance 3d",
    );
  });

  it("names the field of a bad header", () => {
    expect(problem("name: x\nheartbeatInterval: often\nsteps: [start]\n")).toBe(
      's.yaml:2: heartbeatInterval: "often" is not a positive duration (e.g. 90d, 1h)',
    );
    expect(problem("name: x\nlicense:\n  offlineDays: 0\nsteps: [start]\n")).toMatch(
      /^s\.yaml:3: license\.offlineDays: /,
    );
    expect(problem("name: x\nlicence: {}\nsteps: [start]\n")).toMatch(/^s\.yaml(:\d+)?: .*licence/);
    expect(problem("steps: [start]\n")).toMatch(/^s\.yaml(:\d+)?: name: /);
    expect(problem("name: x\nsteps: []\n")).toBe("s.yaml:2: steps: a scenario needs at least one step");
  });

  it("reads the machine, the fingerprint version and the device terms", () => {
    const scenario = parseScenario(
      [
        "name: Moves",
        "machine: pc-1",
        "fingerprintVersion: 1",
        "license:",
        "  fingerprintMatch: strict",
        "  maxNewDevicesPerWindow: 3",
        "  newDeviceWindowDays: 30",
        "steps: [start]",
      ].join("\n"),
      file,
    );
    expect(scenario).toMatchObject({
      machine: "pc-1",
      fingerprintVersion: 1,
      license: { fingerprintMatch: "strict", maxNewDevicesPerWindow: 3, newDeviceWindowDays: 30 },
    });
    // Absent: the SDK's choice and the template's terms.
    const defaults = parseScenario("name: x\nsteps: [start]\n", file);
    expect(defaults.fingerprintVersion).toBeUndefined();
    expect(defaults.license).not.toHaveProperty("fingerprintMatch");
    expect(defaults.license).not.toHaveProperty("maxNewDevicesPerWindow");
    expect(defaults.license).not.toHaveProperty("newDeviceWindowDays");
    expect(problem("name: x\nmachine: office pc\nsteps: [start]\n")).toBe(
      "s.yaml:2: machine: a machine name is one word",
    );
    expect(problem("name: x\nfingerprintVersion: 3\nsteps: [start]\n")).toMatch(
      /^s\.yaml:2: fingerprintVersion: /,
    );
    expect(problem("name: x\nlicense:\n  maxNewDevicesPerWindow: 0\nsteps: [start]\n")).toMatch(
      /^s\.yaml:3: license\.maxNewDevicesPerWindow: /,
    );
    expect(problem("name: x\nlicense:\n  fingerprintMatch: sloppy\nsteps: [start]\n")).toMatch(
      /^s\.yaml:3: license\.fingerprintMatch: /,
    );
  });

  it("reads the license's revocation mode; absent, the template's", () => {
    expect(
      parseScenario("name: x\nlicense:\n  revocation: immediate\nsteps: [start]\n", file).license,
    ).toMatchObject({ revocation: "immediate" });
    expect(parseScenario("name: x\nsteps: [start]\n", file).license).not.toHaveProperty("revocation");
    expect(problem("name: x\nlicense:\n  revocation: at-once\nsteps: [start]\n")).toMatch(
      /^s\.yaml:3: license\.revocation: /,
    );
  });

  it("reads the license's seat model, lease and borrowing terms; absent, the template's", () => {
    const { license } = parseScenario(
      "name: x\nlicense:\n  seatModel: floating\n  leaseSeconds: 300\n  maxBorrowDays: 14\nsteps: [start]\n",
      file,
    );
    expect(license).toMatchObject({ seatModel: "floating", leaseSeconds: 300, maxBorrowDays: 14 });
    const absent = parseScenario("name: x\nsteps: [start]\n", file).license;
    for (const term of ["seatModel", "leaseSeconds", "maxBorrowDays"])
      expect(absent).not.toHaveProperty(term);
    expect(problem("name: x\nlicense:\n  seatModel: shared\nsteps: [start]\n")).toMatch(
      /^s\.yaml:3: license\.seatModel: /,
    );
    expect(problem("name: x\nlicense:\n  leaseSeconds: 30\nsteps: [start]\n")).toMatch(
      /^s\.yaml:3: license\.leaseSeconds: /,
    );
    expect(problem("name: x\nlicense:\n  maxBorrowDays: 31\nsteps: [start]\n")).toMatch(
      /^s\.yaml:3: license\.maxBorrowDays: /,
    );
  });

  it("reports broken YAML with its line", () => {
    expect(problem("name: x\nsteps:\n  - start\n - offline\n")).toMatch(/^s\.yaml:\d+: /);
  });
});
