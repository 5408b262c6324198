import type { LicenseView } from "../shared/bridge.ts";

/** Views as the main process pushes them, for the renderer's tests and screenshots. */
export const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const fingerprint: LicenseView["fingerprint"] = {
  value: "3f1c9a6e0b7d4c2a9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d",
  derivedFrom: "machine",
  sources: [
    { name: "machineName", value: "design-laptop-07" },
    { name: "osDescription", value: "windows 11" },
    { name: "macAddress", value: "3c:22:fb:91:0a:4e" },
    { name: "machineId", value: "8d3f0a2c-77e1-4b9a-a6d4-1e9c2b7f5a30" },
  ],
};

const base: LicenseView = {
  phase: "ready",
  serverUrl: "https://licensing.example.com",
  status: "Active",
  reason: "marker-valid",
  message: "The offline marker is valid until 2026-11-30T09:00:00.000Z",
  usable: true,
  at: T0,
  nextTransitionAt: T0 + 7 * DAY,
  nextStatus: "GracePeriod",
  license: {
    licenseId: "0b8f6c1e-4a2d-4f7b-9c3e-5d1a2b3c4d5e",
    productCode: "EDITOR",
    version: 1,
    issuedAt: T0 - 30 * DAY,
    expiresAt: T0 + 335 * DAY,
    trial: false,
    hwBinding: "firstActivation",
    features: ["export"],
    limits: { maxSeats: 3, maxProjects: 5 },
  },
  marker: { issuedAt: T0, expiresAt: T0 + 7 * DAY, graceEndsAt: T0 + 8 * DAY },
  fingerprint,
  connection: {
    activated: true,
    heartbeating: true,
    lastContactAt: T0,
    nextHeartbeatAt: T0 + 15 * 60_000,
    lastError: null,
    markerProblem: null,
  },
  machines: null,
  retryAt: null,
  gating: { exportUnlocked: true, maxProjects: 5 },
  qa: { enabled: false, network: "online", clockOffsetMs: 0 },
};

/** A refusal on a new machine: no marker, so Expired with the server's reason, export locked. */
const refused = (
  reason: LicenseView["reason"],
  message: string,
  lastError: NonNullable<LicenseView["connection"]["lastError"]>,
  heartbeating: boolean,
): LicenseView => ({
  ...base,
  status: "Expired",
  reason,
  message,
  usable: false,
  nextTransitionAt: null,
  nextStatus: null,
  marker: null,
  connection: {
    activated: false,
    heartbeating,
    lastContactAt: null,
    nextHeartbeatAt: heartbeating ? T0 + 15 * 60_000 : null,
    lastError,
    markerProblem: null,
  },
  gating: { exportUnlocked: false, maxProjects: null },
});

export const views = {
  firstRun: {
    ...base,
    phase: "first-run",
    status: "Invalid",
    reason: "license-file-missing",
    message: "No license is installed yet",
    usable: false,
    nextTransitionAt: null,
    nextStatus: null,
    license: null,
    marker: null,
    fingerprint: null,
    connection: {
      ...base.connection,
      activated: false,
      heartbeating: false,
      lastContactAt: null,
      nextHeartbeatAt: null,
    },
    gating: { exportUnlocked: false, maxProjects: null },
  },
  active: base,
  /** Offline since the marker expired 1 hour ago: 23 hours of grace left. */
  grace: {
    ...base,
    status: "GracePeriod",
    reason: "marker-expired",
    message: "The offline marker expired; the grace period runs until 2026-12-01T09:00:00.000Z",
    at: T0 + 7 * DAY + HOUR,
    nextTransitionAt: T0 + 8 * DAY,
    nextStatus: "Expired",
    connection: {
      ...base.connection,
      lastContactAt: T0,
      nextHeartbeatAt: T0 + 7 * DAY + HOUR + 10_000,
      lastError: { code: "network.error", message: "fetch failed", status: null },
    },
    qa: { enabled: true, network: "offline", clockOffsetMs: 7 * DAY + HOUR },
  },
  expired: {
    ...base,
    status: "Expired",
    reason: "grace-ended",
    message: "The offline marker and its grace period are over",
    usable: false,
    at: T0 + 8 * DAY + HOUR,
    nextTransitionAt: null,
    nextStatus: null,
    connection: {
      ...base.connection,
      lastError: { code: "network.error", message: "fetch failed", status: null },
    },
    gating: { exportUnlocked: false, maxProjects: null },
    qa: { enabled: true, network: "offline", clockOffsetMs: 8 * DAY + HOUR },
  },
  /** Every seat taken by other machines: the seat-limit screen lists them. */
  seatLimit: {
    ...refused(
      "seat-limit",
      "Every seat of the license is in use (3 machines): free one (deactivateMachine) or wait; the server said: All 3 seats of the license are in use",
      {
        code: "activation.seat_limit_reached",
        message: "All 3 seats of the license are in use",
        status: 409,
      },
      true,
    ),
    machines: [
      {
        seatId: "5b7e2f0c-1d3a-4c8e-9f6b-2a4d6c8e0f13",
        name: "OFFICE-PC-12",
        activatedAt: T0 - 84 * DAY,
        lastHeartbeatAt: T0 - 20 * 60_000,
      },
      {
        seatId: "9c1a3e5f-7b2d-4f6a-8e0c-3b5d7f9a1c24",
        name: "design-laptop-03",
        activatedAt: T0 - 41 * DAY,
        lastHeartbeatAt: T0 - 38 * DAY,
      },
      {
        seatId: "e4f6a8c0-2b4d-4e6f-a1c3-5d7f9b1d3e35",
        name: null,
        activatedAt: T0 - 3 * DAY,
        lastHeartbeatAt: null,
      },
    ],
  },
  /** Too many new devices lately: this machine may activate in 12 days. */
  deviceBudget: {
    ...refused(
      "device-budget",
      "The license has activated as many new devices as its window allows; a new device may activate from 2026-12-05T09:00:00.000Z",
      {
        code: "activation.device_budget_exhausted",
        message:
          "3 of 3 new devices were activated on this license within its window; the next may activate from 2026-12-05T09:00:00.000Z",
        status: 429,
      },
      true,
    ),
    retryAt: T0 + 12 * DAY,
  },
  licenseNotActive: refused(
    "license-not-active",
    "The license is not active (revoked, suspended or expired): The license is Revoked",
    { code: "license.not_active", message: "The license is Revoked", status: 400 },
    false,
  ),
  deviceChanged: refused(
    "device-changed",
    "The license is bound to another machine or awaits a rebind (activation.fingerprint_mismatch): The license is bound to another machine",
    {
      code: "activation.fingerprint_mismatch",
      message: "The license is bound to another machine",
      status: 400,
    },
    false,
  ),
} satisfies Record<string, LicenseView>;

export const withQa = (view: LicenseView): LicenseView => ({ ...view, qa: { ...view.qa, enabled: true } });
