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
  serverLeases: async () => [
    {
      leaseId: "00000000-0000-4000-8000-0000000000a1",
      activationId: "00000000-0000-4000-8000-000000000001",
      machineName: "office-pc",
      acquiredAt: "2026-01-01T00:00:00Z",
      expiresAt: "2026-01-01T00:15:00Z",
      borrowedUntil: null,
    },
  ],
  fingerprintOf: (machine) => (machine === "office-pc" ? "f".repeat(64) : "0".repeat(64)),
  requestsSinceLastCheck: () => 0,
  offline: {
    request: "-----BEGIN LICENSE ACTIVATION REQUEST-----\n…",
    requestLength: 920,
    response: null,
    activationId: null,
    refused: "other-machine",
    receipt: null,
  },
  signerOf: async (file) =>
    file === "license"
      ? { key: 2, kid: "00000000-0000-4000-8000-000000000002" }
      : { key: null, kid: "00000000-0000-4000-8000-00000000000f" },
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

  it("counts the live leases the panel lists; holders need a running client", async () => {
    expect(await run({ kind: "count", what: "leases", value: 1 })).toEqual({
      ok: true,
      message: "live leases = 1",
    });
    expect(await run({ kind: "count", what: "leases", value: 3 })).toEqual({
      ok: false,
      message: "live leases: expected 3, got 1",
    });
    expect(await run({ kind: "holders", value: 3 })).toEqual({
      ok: false,
      message: "no application is running: start it first",
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

  it("counts the requests since the previous count: each check starts a new one", async () => {
    let made = 3;
    const counting: ExpectContext = {
      ...context,
      requestsSinceLastCheck: () => {
        const count = made;
        made = 0;
        return count;
      },
    };
    expect(await check({ kind: "requests", value: 3 }, counting)).toEqual({
      ok: true,
      message: "requests since the last count = 3",
    });
    expect(await check({ kind: "requests", value: 1 }, counting)).toEqual({
      ok: false,
      message: "requests since the last count: expected 1, got 0",
    });
  });

  it("reads the air-gapped exchange, with no client running", async () => {
    expect(await run({ kind: "value", source: "offline", path: "refused", value: "other-machine" })).toEqual({
      ok: true,
      message: "offline.refused = other-machine",
    });
    expect(await run({ kind: "value", source: "offline", path: "activationId", value: "x" })).toEqual({
      ok: false,
      message: "offline.activationId: expected x, got null",
    });
  });

  it("names the key that signed a file by its number, and a key the template did not make by its id", async () => {
    expect(await run({ kind: "signer", file: "license", key: 2 })).toEqual({
      ok: true,
      message: "license signed by key 2",
    });
    expect(await run({ kind: "signer", file: "license", key: 1 })).toEqual({
      ok: false,
      message: "license: expected key 1, got key 2",
    });
    expect(await run({ kind: "signer", file: "marker", key: 3 })).toEqual({
      ok: false,
      message:
        "marker: expected key 3, got a key the template did not make (00000000-0000-4000-8000-00000000000f)",
    });
    const none: ExpectContext = { ...context, signerOf: async () => null };
    expect(await check({ kind: "signer", file: "marker", key: 1 }, none)).toEqual({
      ok: false,
      message: "marker: expected key 1, got no marker on disk",
    });
  });

  it("a check of the client needs a running client", async () => {
    expect(await run({ kind: "status", status: "Active" })).toEqual({
      ok: false,
      message: "no application is running: start it first",
    });
  });
});
