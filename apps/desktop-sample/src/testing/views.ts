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
  gating: { exportUnlocked: true, maxProjects: 5 },
  qa: { enabled: false, network: "online", clockOffsetMs: 0 },
};

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
} satisfies Record<string, LicenseView>;

export const withQa = (view: LicenseView): LicenseView => ({ ...view, qa: { ...view.qa, enabled: true } });
