import type { ActivationResponse } from "@licensing/contracts";
import { describe, expect, it } from "vitest";
import { MachineFingerprint, type ExpectTarget } from "../scenario/steps.ts";
import { check, matches, type ExpectContext } from "./expectations.ts";

const activation = (status: "active" | "deactivated", heals: number): ActivationResponse => ({
  id: "00000000-0000-4000-8000-000000000001",
  hwFingerprint: "fp",
  machineName: "office-pc",
  status,
  mode: "online",
  activatedAt: "2026-01-01T00:00:00Z",
  lastHeartbeatAt: null,
  deactivatedAt: null,
  componentKinds: [],
  newDevice: true,
  heals: Array.from({ length: heals }, () => ({
    healedAt: "2026-01-01T00:00:00Z",
    score: 0.86,
    changedKinds: ["mac-address"],
  })),
});

const context: ExpectContext = {
  client: null,
  lastInitialize: null,
  lastActivation: { activationId: "a1", healed: true },
  serverLicense: async () => ({ hwFingerprint: "f".repeat(64) }),
  serverActivations: async () => [
    activation("active", 1),
    activation("deactivated", 1),
    activation("active", 0),
  ],
  fingerprintOf: (machine) => (machine === "office-pc" ? "f".repeat(64) : "0".repeat(64)),
};

const run = (target: ExpectTarget) => check(target, context);

describe("matches", () => {
  it("compares JSON values, and a time written as ISO text with epoch ms or ISO text of the same instant", () => {
    expect(matches(3, 3)).toBe(true);
    expect(matches(undefined, null)).toBe(true);
    expect(matches(Date.parse("2026-03-03T00:00:00Z"), "2026-03-03T00:00:00Z")).toBe(true);
    expect(matches("2026-03-03T00:00:00.000Z", "2026-03-03T00:00:00Z")).toBe(true);
    expect(matches("2026-03-03T00:00:01.000Z", "2026-03-03T00:00:00Z")).toBe(false);
    expect(matches("seat-limit", "device-budget")).toBe(false);
  });
});

describe("check", () => {
  it("counts the license's live activations, all of them, and their heals", async () => {
    expect(await run({ kind: "count", what: "seats", value: 2 })).toEqual({ ok: true, message: "seats = 2" });
    expect(await run({ kind: "count", what: "activations", value: 3 })).toMatchObject({ ok: true });
    expect(await run({ kind: "count", what: "heals", value: 1 })).toEqual({
      ok: false,
      message: "heals: expected 1, got 2",
    });
  });

  it("reads the last activation answer, with no client running", async () => {
    expect(await run({ kind: "value", source: "activation", path: "healed", value: true })).toEqual({
      ok: true,
      message: "activation.healed = true",
    });
    expect(
      await run({
        kind: "value",
        source: "activation",
        path: "code",
        value: "activation.seat_limit_reached",
      }),
    ).toMatchObject({ ok: false });
  });

  it("compares with a machine's fingerprint, and says which machine", async () => {
    const target = (machine: string): ExpectTarget => ({
      kind: "value",
      source: "server",
      path: "hwFingerprint",
      value: new MachineFingerprint(machine),
    });
    expect(await run(target("office-pc"))).toEqual({
      ok: true,
      message: `server.hwFingerprint = ${"f".repeat(64)} (fingerprint(office-pc))`,
    });
    expect(await run(target("home-laptop"))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/expected 0{64}, got f{64} \(fingerprint\(home-laptop\)\)$/),
    });
  });

  it("a check of the client needs a running client", async () => {
    expect(await run({ kind: "status", status: "Active" })).toEqual({
      ok: false,
      message: "no application is running: start it first",
    });
  });
});
