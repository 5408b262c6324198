import type { ActivationResponse, LicenseResponse } from "@licensing/contracts";
import { describe, expect, it } from "vitest";
import type { RequestPreview } from "./offline-blocks.ts";
import { certificateEnd, receiptOutcome, requestOutcome, seatLimit } from "./offline-outcome.ts";

const NOW = Date.UTC(2026, 2, 1);
const DAY = 86_400_000;
const formatDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const license: LicenseResponse = {
  id: "3f1d2c4b-6a7e-4f80-9b1c-2d3e4f5a6b7c",
  licenseKey: "SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D",
  companyId: "0b8f6c1e-4a2d-4f7b-9c3e-5d1a2b3c4d5e",
  templateId: "1b8f6c1e-4a2d-4f7b-9c3e-5d1a2b3c4d5e",
  status: "Active",
  config: JSON.stringify({ features: [], limits: { maxSeats: 2 } }),
  offlineDays: 7,
  currentVersion: 1,
  expiresAt: new Date(NOW + 100 * DAY).toISOString(),
  issuedAt: new Date(NOW - DAY).toISOString(),
  activatedAt: null,
  lastHeartbeatAt: null,
  revokedAt: null,
  revocationReason: null,
  isTrial: false,
  hwBinding: "none",
  hwFingerprint: null,
  fingerprintMatch: "fuzzy",
  revocation: "graceful",
  deviceBudget: { used: 0, max: null, windowDays: 30, resetsAt: null },
};

const activation = (over: Partial<ActivationResponse>): ActivationResponse => ({
  id: "b5e0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
  hwFingerprint: "fp-office",
  machineName: "Office PC",
  status: "active",
  mode: "online",
  activatedAt: new Date(NOW - 2 * DAY).toISOString(),
  lastHeartbeatAt: null,
  deactivatedAt: null,
  componentKinds: [],
  newDevice: true,
  heals: [],
  ...over,
});

const request: RequestPreview = {
  licenseId: license.id,
  fingerprint: "fp-lab",
  componentKinds: ["machine-id"],
  machineName: "Lab bench",
  madeAt: NOW,
};
const outcome = (l: LicenseResponse, list: ActivationResponse[], validDays: number | null = null) =>
  requestOutcome(l, list, request, { validDays, now: NOW, formatDate });

describe("what an offline activation will do", () => {
  it("takes the next seat, until the license's expiry by default or validDays, never past it", () => {
    expect(outcome(license, [activation({})])).toEqual([
      { tone: "ok", text: "It takes seat 2 of 2." },
      {
        tone: "note",
        text: expect.stringMatching(/^The response activates it until 2026-06-09, when the license expires,/),
      },
    ]);
    expect(outcome(license, [], 30).at(-1)!.text).toMatch(
      /^The response activates it until 2026-03-31, with no grace/,
    );
    expect(outcome(license, [], 3650).at(-1)!.text).toMatch(/until 2026-06-09, when the license expires/);
    expect(certificateEnd(license, 30, NOW)).toBe(NOW + 30 * DAY);
  });

  it("says when every seat is taken, the device budget is spent or the binding refuses", () => {
    const full = outcome(license, [activation({}), activation({ id: "x", hwFingerprint: "fp-2" })]);
    expect(full[0]).toMatchObject({
      tone: "refused",
      text: expect.stringMatching(/^All 2 seats are in use/),
    });
    const spent = outcome(
      { ...license, deviceBudget: { used: 3, max: 3, windowDays: 30, resetsAt: null } },
      [],
    );
    expect(spent[1]).toMatchObject({
      tone: "refused",
      text: expect.stringMatching(/^The device budget is spent \(3 of 3/),
    });
    const bound = outcome({ ...license, hwBinding: "fixed", hwFingerprint: "fp-office" }, []);
    expect(bound[0]).toMatchObject({
      tone: "refused",
      text: expect.stringContaining("bound to another machine (fp-office)"),
    });
    const released = outcome({ ...license, hwBinding: "fixed", hwFingerprint: null }, []);
    expect(released[0]).toMatchObject({ tone: "refused", text: expect.stringContaining("awaits a rebind") });
    expect(outcome({ ...license, config: "{}" }, [])[0]!.text).toBe(
      "It takes a seat: 0 in use now, and the license sets no limit.",
    );
  });

  it("a machine already activated keeps its seat; another license's request, or a license not Active, is refused", () => {
    const again = outcome(license, [
      activation({ hwFingerprint: "fp-lab", machineName: "Lab bench", mode: "offline" }),
    ]);
    expect(again[0]!.text).toBe(
      "Lab bench is already activated on this license without network: it keeps its seat and gets a new certificate.",
    );
    expect(
      requestOutcome(
        license,
        [],
        { ...request, licenseId: "other" },
        { validDays: null, now: NOW, formatDate },
      ),
    ).toEqual([{ tone: "refused", text: expect.stringContaining("another license (other)") }]);
    expect(outcome({ ...license, status: "Suspended" }, [])).toEqual([
      { tone: "refused", text: "The license is Suspended: no machine can activate it." },
    ]);
  });
});

describe("what an offline deactivation will do", () => {
  const receipt = {
    licenseId: license.id,
    activationId: "b5e0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
    madeAt: NOW,
  };
  const of = (list: ActivationResponse[], r = receipt) => receiptOutcome(license, list, r, { formatDate });

  it("names the machine whose seat it frees", () => {
    expect(of([activation({ mode: "offline", machineName: "Lab bench" })])).toEqual([
      { tone: "ok", text: "It frees the seat of Lab bench, activated without network on 2026-02-27." },
    ]);
  });

  it("says when the seat is already free, or the receipt names nothing it can free", () => {
    const freed = activation({
      mode: "offline",
      status: "deactivated",
      deactivatedAt: new Date(NOW).toISOString(),
    });
    expect(of([freed])[0]).toMatchObject({
      tone: "note",
      text: expect.stringContaining("already free (since 2026-03-01)"),
    });
    expect(of([activation({})])[0]).toMatchObject({
      tone: "refused",
      text: expect.stringContaining("activated online"),
    });
    expect(of([])[0]).toMatchObject({ tone: "refused", text: expect.stringContaining("does not have") });
    expect(of([], { ...receipt, licenseId: "other" })[0]!.text).toContain("another license (other)");
  });
});

describe("the seat limit", () => {
  it("is a positive integer limits.maxSeats, else none", () => {
    expect(seatLimit('{"limits":{"maxSeats":3}}')).toBe(3);
    for (const config of ['{"limits":{"maxSeats":0}}', '{"limits":{"maxSeats":"3"}}', "{}", "not json"])
      expect(seatLimit(config)).toBeNull();
  });
});
