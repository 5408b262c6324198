import { describe, expect, it } from "vitest";
import { deriveStatus, GRACE_PERIOD_MS, type StatusInputs } from "./derive-status.ts";
import { observe, observedFloor } from "./observed-time.ts";

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;
const T0 = Date.UTC(2027, 0, 1);
const markerExp = T0 + 7 * DAY;
const inputs = (overrides: Partial<StatusInputs> = {}): StatusInputs => ({
  license: { expiresAt: T0 + 365 * DAY },
  marker: { issuedAt: T0, expiresAt: markerExp },
  ...overrides,
});

describe("deriveStatus: the six rules at their boundaries", () => {
  it.each([
    ["marker exp − 1 s", markerExp - SECOND, "Active", "marker-valid", markerExp, "GracePeriod"],
    ["marker exp", markerExp, "GracePeriod", "marker-expired", markerExp + GRACE_PERIOD_MS, "Expired"],
    ["marker exp + 1 s", markerExp + SECOND, "GracePeriod", "marker-expired", markerExp + DAY, "Expired"],
    [
      "marker exp + 24 h − 1 s",
      markerExp + DAY - SECOND,
      "GracePeriod",
      "marker-expired",
      markerExp + DAY,
      "Expired",
    ],
    ["marker exp + 24 h", markerExp + DAY, "Expired", "grace-ended", null, null],
    ["marker exp + 24 h + 1 s", markerExp + DAY + SECOND, "Expired", "grace-ended", null, null],
  ] as const)("%s: %s (%s)", (_label, now, status, reason, nextTransitionAt, nextStatus) => {
    expect(deriveStatus(inputs(), now)).toMatchObject({ status, reason, nextTransitionAt, nextStatus });
  });

  it("rule 1: a token that expires before the marker ends Active at the token's exp, online or not", () => {
    const tokenExp = markerExp - DAY;
    const license = { expiresAt: tokenExp };
    expect(deriveStatus(inputs({ license }), tokenExp - SECOND)).toMatchObject({
      status: "Active",
      nextTransitionAt: tokenExp,
      nextStatus: "Expired",
    });
    expect(deriveStatus(inputs({ license }), tokenExp)).toMatchObject({
      status: "Expired",
      reason: "token-expired",
    });
    expect(deriveStatus(inputs({ license }), tokenExp + SECOND).status).toBe("Expired");
  });

  it("rule 1: a token that expires after the marker, inside the grace period, cuts the grace short", () => {
    const tokenExp = markerExp + 6 * 60 * 60 * SECOND;
    const license = { expiresAt: tokenExp };
    expect(deriveStatus(inputs({ license }), markerExp - SECOND)).toMatchObject({
      status: "Active",
      nextTransitionAt: markerExp,
      nextStatus: "GracePeriod",
    });
    expect(deriveStatus(inputs({ license }), tokenExp - SECOND)).toMatchObject({
      status: "GracePeriod",
      nextTransitionAt: tokenExp,
      nextStatus: "Expired",
    });
    expect(deriveStatus(inputs({ license }), tokenExp + SECOND)).toMatchObject({
      status: "Expired",
      reason: "token-expired",
    });
  });

  it("rule 1 overrides a fresh marker", () => {
    const details = deriveStatus(inputs({ license: { expiresAt: T0 } }), T0 + SECOND);
    expect(details).toMatchObject({ status: "Expired", reason: "token-expired", markerExpiresAt: markerExp });
  });

  it("without a valid marker the offline window is empty: Expired, saying why", () => {
    expect(deriveStatus(inputs({ marker: null }), T0)).toMatchObject({
      status: "Expired",
      reason: "no-marker",
      nextTransitionAt: null,
    });
  });

  it("rule 6 and before initialize: Invalid with the problem as the reason", () => {
    for (const problem of [
      "license-file-missing",
      "license-file-unreadable",
      "signature-invalid",
      "not-initialized",
    ] as const) {
      expect(deriveStatus(inputs({ license: { problem } }), T0)).toMatchObject({
        status: "Invalid",
        reason: problem,
        tokenExpiresAt: null,
      });
    }
  });

  it("reports the times a reader needs", () => {
    expect(deriveStatus(inputs(), T0 + DAY)).toEqual({
      status: "Active",
      reason: "marker-valid",
      message: `Valid offline until ${new Date(markerExp).toISOString()}`,
      at: T0 + DAY,
      clockAt: T0 + DAY,
      clockBehindBy: 0,
      nextTransitionAt: markerExp,
      nextStatus: "GracePeriod",
      tokenExpiresAt: T0 + 365 * DAY,
      markerIssuedAt: T0,
      markerExpiresAt: markerExp,
      graceEndsAt: markerExp + DAY,
      certificateExpiresAt: null,
      leaseExpiresAt: null,
    });
  });
});

describe("a floating license's lease (decision 0052)", () => {
  const leaseExp = T0 + 900 * SECOND;
  const leased = (lease: StatusInputs["lease"], licenseExp = T0 + 365 * DAY): StatusInputs => ({
    license: { expiresAt: licenseExp },
    // A marker does not count for a floating license: the lease does, with no grace period.
    marker: { issuedAt: T0, expiresAt: markerExp },
    lease,
  });

  it.each([
    [
      "held, its exp − 1 s",
      leased({ expiresAt: leaseExp, borrowed: false }),
      leaseExp - SECOND,
      "Active",
      "lease-held",
    ],
    ["borrowed", leased({ expiresAt: leaseExp, borrowed: true }), T0, "Active", "lease-borrowed"],
    ["at its exp", leased({ expiresAt: leaseExp, borrowed: false }), leaseExp, "Expired", "lease-expired"],
    ["none", leased(null), T0, "Expired", "no-lease"],
    [
      "past the token's exp",
      leased({ expiresAt: leaseExp, borrowed: true }, T0),
      T0,
      "Expired",
      "token-expired",
    ],
  ] as const)("%s", (_name, input, at, status, reason) => {
    expect(deriveStatus(input, at)).toMatchObject({ status, reason });
  });

  it("ends Active at the lease's end, or the token's when that comes first", () => {
    expect(deriveStatus(leased({ expiresAt: leaseExp, borrowed: false }), T0)).toMatchObject({
      nextTransitionAt: leaseExp,
      nextStatus: "Expired",
      leaseExpiresAt: leaseExp,
    });
    const shortLicense = leased({ expiresAt: leaseExp, borrowed: true }, T0 + 60 * SECOND);
    expect(deriveStatus(shortLicense, T0).nextTransitionAt).toBe(T0 + 60 * SECOND);
  });
});

describe("an offline certificate (decision 0050)", () => {
  const certificateExp = T0 + 30 * DAY;
  const offline = (licenseExp = T0 + 365 * DAY): StatusInputs => ({
    license: { expiresAt: licenseExp },
    marker: null,
    certificate: { expiresAt: certificateExp },
  });

  it.each([
    ["its exp − 1 s", certificateExp - SECOND, "Active", "offline-activated"],
    ["its exp", certificateExp, "Expired", "offline-expired"],
    ["its exp + 12 h: no grace period", certificateExp + DAY / 2, "Expired", "offline-expired"],
  ] as const)("at %s: %s (%s)", (_label, now, status, reason) => {
    expect(deriveStatus(offline(), now)).toMatchObject({
      status,
      reason,
      certificateExpiresAt: certificateExp,
    });
  });

  it("ends at the token's exp when that comes first", () => {
    const licenseExp = T0 + 10 * DAY;
    expect(deriveStatus(offline(licenseExp), T0)).toMatchObject({
      status: "Active",
      nextTransitionAt: licenseExp,
      nextStatus: "Expired",
    });
    expect(deriveStatus(offline(licenseExp), licenseExp)).toMatchObject({
      status: "Expired",
      reason: "token-expired",
    });
  });

  it("reads a clock set back as the observed time", () => {
    const details = deriveStatus({ ...offline(), observedAt: certificateExp }, certificateExp - 5 * DAY);
    expect(details).toMatchObject({ status: "Expired", reason: "offline-expired" });
  });
});

describe("clock rollback", () => {
  it("a clock set back behind the observed time is read as the observed time", () => {
    const observedAt = markerExp + 2 * SECOND;
    const rolledBack = markerExp - 3 * DAY;
    const details = deriveStatus(inputs({ observedAt }), rolledBack);
    expect(details).toMatchObject({
      status: "GracePeriod",
      at: observedAt,
      clockAt: rolledBack,
      clockBehindBy: observedAt - rolledBack,
    });
    expect(deriveStatus(inputs({ observedAt: markerExp - SECOND }), rolledBack).status).toBe("Active");
    // Observed time behind the clock changes nothing.
    expect(deriveStatus(inputs({ observedAt: T0 }), markerExp + DAY + SECOND).status).toBe("Expired");
  });

  it("time goes on from the observed time as the clock moves, so turning the clock back buys nothing", () => {
    let observed = observe(null, markerExp - DAY);
    // The clock is set back three days, and the program runs on for a day and a half.
    const back = markerExp - 4 * DAY;
    observed = observe(observed, back);
    expect(observed.at).toBe(markerExp - DAY);
    const later = back + DAY + 12 * 60 * 60 * SECOND;
    expect(observedFloor(observed, later)).toBe(markerExp + 12 * 60 * 60 * SECOND);
    expect(deriveStatus(inputs({ observedAt: observedFloor(observed, later) }), later).status).toBe(
      "GracePeriod",
    );
  });

  it("a trusted time ahead of the clock (a slow clock) raises the observed time", () => {
    const observed = observe(null, T0, T0 + 10 * 60 * SECOND);
    expect(observed).toEqual({ at: T0 + 10 * 60 * SECOND, clockAt: T0 });
    expect(observedFloor(observed, T0 + SECOND)).toBe(T0 + 10 * 60 * SECOND + SECOND);
  });
});

describe("deriveStatus: a verified revocation (immediate revocation, decision 0049)", () => {
  it("is Revoked at once and for good, whatever the marker and the token's expiry say", () => {
    const revokedAt = T0 + DAY;
    for (const now of [T0 + DAY, markerExp + 2 * DAY, T0 + 400 * DAY]) {
      expect(deriveStatus(inputs({ revokedAt }), now)).toMatchObject({
        status: "Revoked",
        reason: "revoked",
        nextTransitionAt: null,
        nextStatus: null,
      });
    }
    expect(deriveStatus(inputs({ revokedAt, marker: null }), T0).status).toBe("Revoked");
    expect(deriveStatus(inputs({ revokedAt: null }), T0).status).toBe("Active");
  });

  it("does not hide a license that does not verify (rule 6 first)", () => {
    const license = { problem: "signature-invalid" as const };
    expect(deriveStatus(inputs({ license, revokedAt: T0 }), T0).status).toBe("Invalid");
  });
});
