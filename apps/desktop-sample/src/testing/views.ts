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
  holders: null,
  gating: { exportUnlocked: true, maxProjects: 5 },
  offline: { request: null, certificateExpiresAt: null, receipt: null },
  qa: { enabled: false, network: "online", clockOffsetMs: 0 },
};

/** An activation request as the SDK writes it (its HMAC made up), and a receipt. */
const REQUEST = `-----BEGIN LICENSE ACTIVATION REQUEST-----
eyJ2IjoxLCJsaWQiOiIwYjhmNmMxZS00YTJkLTRmN2ItOWMzZS01ZDFhMmIzYzRk
NWUiLCJmcCI6IjNmMWM5YTZlMGI3ZDRjMmE5ZThmN2E2YjVjNGQzZTJmMWEwYjlj
OGQ3ZTZmNWE0YjNjMmQxZTBmOWE4YjdjNmQiLCJjbXAiOnt9LCJtbiI6ImRlc2ln
bi1sYXB0b3AtMDciLCJub25jZSI6InEwWGIzSjdacjFwOW1XY1l0MkxoU0EiLCJp
YXQiOjE3OTQ5MDk2MDB9.Gow8S5PUdD-vNFWzz7bJs_vXN401SQJi-dyi_KePUnM
-----END LICENSE ACTIVATION REQUEST-----
`;
const RECEIPT = `-----BEGIN LICENSE DEACTIVATION-----
eyJ2IjoxLCJsaWQiOiIwYjhmNmMxZS00YTJkLTRmN2ItOWMzZS01ZDFhMmIzYzRk
NWUiLCJhaWQiOiJiNWUwYzFkMi0zZTRmLTRhNWItOGM2ZC03ZThmOWEwYjFjMmQi
LCJub25jZSI6InEwWGIzSjdacjFwOW1XY1l0MkxoU0EiLCJpYXQiOjE3OTQ5MDk2
MDB9.16qhS1tV2UmJo3u9THP0af9_NK-nD1HIlCVn9fOofH0
-----END LICENSE DEACTIVATION-----
`;
/** A stand-in for the QR code the main process draws: a small SVG, as the same kind of image URL. */
const QR_CODE = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><rect width="29" height="29" fill="#fff"/><path d="M4 4h7v7H4zM18 4h7v7h-7zM4 18h7v7H4zM13 13h3v3h-3z"/></svg>',
)}`;

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

/** A computer that has never reached the server: no marker, the network fails. */
const airGapped: LicenseView = {
  ...base,
  status: "Expired",
  reason: "no-marker",
  message:
    "No valid offline marker, and the server could not be reached (fetch failed): the offline window is empty",
  usable: false,
  nextTransitionAt: null,
  nextStatus: null,
  marker: null,
  connection: {
    activated: false,
    heartbeating: true,
    lastContactAt: null,
    nextHeartbeatAt: T0 + 30_000,
    lastError: { code: "network.error", message: "fetch failed", status: null },
    markerProblem: null,
  },
  gating: { exportUnlocked: false, maxProjects: null },
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
  /** A floating license with both seats leased elsewhere: the "no free seat" screen lists them. */
  noSeat: {
    ...refused(
      "no-seat",
      "Every seat of the floating license is leased (2 machines); the first may free at 2026-11-23T09:10:00.000Z, and the client asks again by then",
      {
        code: "lease.seats_exhausted",
        message: "All 2 seats of the license are leased",
        status: 409,
      },
      true,
    ),
    retryAt: T0 + 10 * 60_000,
    holders: [
      { name: "OFFICE-PC-12", since: T0 - 2 * HOUR, until: T0 + 10 * 60_000 },
      { name: null, since: T0 - 30 * 60_000, until: T0 + 14 * 60_000 },
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
  airGapped,
  /** "Activate without internet": the request made, awaiting the vendor's response. */
  offlineRequested: {
    ...airGapped,
    offline: { ...airGapped.offline, request: { text: REQUEST, qrCode: QR_CODE } },
  },
  /** The response applied: Active until the agreed date, no heartbeat (the request stays pending). */
  offlineActivated: {
    ...base,
    reason: "offline-activated",
    message: "Activated offline; the certificate is valid until 2026-12-23T09:00:00.000Z",
    nextTransitionAt: T0 + 30 * DAY,
    nextStatus: "Expired",
    marker: null,
    connection: {
      activated: true,
      heartbeating: false,
      lastContactAt: null,
      nextHeartbeatAt: null,
      lastError: null,
      markerProblem: null,
    },
    offline: {
      request: { text: REQUEST, qrCode: QR_CODE },
      certificateExpiresAt: T0 + 30 * DAY,
      receipt: null,
    },
  },
  /** Deactivated offline: locked, the receipt shown until it was handed in. */
  offlineReceipt: {
    ...airGapped,
    connection: { ...airGapped.connection, heartbeating: false, nextHeartbeatAt: null, lastError: null },
    offline: { request: null, certificateExpiresAt: null, receipt: RECEIPT },
  },
} satisfies Record<string, LicenseView>;

export const withQa = (view: LicenseView): LicenseView => ({ ...view, qa: { ...view.qa, enabled: true } });
