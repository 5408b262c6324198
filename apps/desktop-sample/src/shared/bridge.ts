/**
 * The preload bridge: the only way the renderer talks to the main process. Types only, plus the channel
 * names both sides share. The renderer never sees the license key or a file path.
 */
import type { ClientStatus, StatusReason } from "@licensing/client/core";

export type { ClientStatus, StatusReason };

/** What the QA panel can do to the network between the client and the server. */
export const NETWORK_MODES = ["online", "offline", "server-error"] as const;
export type NetworkMode = (typeof NETWORK_MODES)[number];

/** The sample's gated feature and limit, read from the license's config. */
export const GATED_FEATURE = "export";
export const PROJECT_LIMIT_PATH = "limits.maxProjects";

export interface FingerprintView {
  /** The fingerprint sent on activation (64 hex characters, or what the product configured). */
  value: string;
  /** Where it came from: the SDK's default sources, or a value the product set. */
  derivedFrom: "machine" | "configured";
  sources: Array<{ name: string; value: string | null }>;
}

/** A machine holding one of the license's seats, as the seat-limit screen lists it. */
export interface MachineView {
  /**
   * The main process's name for the machine's activation, valid while the app runs: the renderer holds
   * no activation id (decision 0033), and frees a seat by this name.
   */
  seatId: string;
  /** The name the machine gave on activation (its host name by default); null when it gave none. */
  name: string | null;
  activatedAt: number;
  /** The machine's last heartbeat; null when it has sent none since it activated. */
  lastHeartbeatAt: number | null;
}

/** A machine holding a seat of a floating license, as the "no free seat" screen lists it (no id). */
export interface SeatHolderView {
  /** The name the machine gave on activation; null when it gave none. */
  name: string | null;
  /** Since when it holds the seat (epoch ms). */
  since: number;
  /** When its lease ends unless renewed (epoch ms). */
  until: number;
}

/** Air-gapped activation (decision 0050): what the "Activate without internet" path shows. */
export interface OfflineView {
  /**
   * The activation request awaiting the vendor's answer, and its QR code as a `data:image/svg+xml;base64,`
   * URL (drawn by the main process, shown as an image); null when none was made. It holds the license id,
   * this machine's fingerprint, components and name, a nonce and an HMAC: never the license key.
   */
  request: { text: string; qrCode: string } | null;
  /** Activated without internet: when the certificate ends (epoch ms); null otherwise. */
  certificateExpiresAt: number | null;
  /**
   * The receipt of the last offline deactivation, kept (on disk too) until the user says it was handed in:
   * it cannot be made again. It names this machine's activation, which the vendor's panel frees with it.
   */
  receipt: string | null;
}

/** The blocks the user copies or saves for the vendor. */
export const OFFLINE_BLOCKS = ["request", "receipt"] as const;
export type OfflineBlock = (typeof OFFLINE_BLOCKS)[number];

export interface LicenseView {
  /** `first-run`: no license installed yet; `ready`: a license file is installed and the client runs. */
  phase: "first-run" | "ready";
  serverUrl: string;
  status: ClientStatus;
  reason: StatusReason;
  message: string;
  usable: boolean;
  /** The clock time the view was computed at (epoch ms), as the client reads its (QA-shifted) clock. */
  at: number;
  nextTransitionAt: number | null;
  nextStatus: ClientStatus | null;
  license: {
    licenseId: string;
    productCode: string;
    version: number;
    issuedAt: number;
    expiresAt: number;
    trial: boolean;
    hwBinding: string;
    features: string[];
    limits: Record<string, unknown>;
  } | null;
  marker: { issuedAt: number; expiresAt: number; graceEndsAt: number } | null;
  fingerprint: FingerprintView | null;
  connection: {
    activated: boolean;
    heartbeating: boolean;
    lastContactAt: number | null;
    nextHeartbeatAt: number | null;
    lastError: { code: string; message: string; status: number | null } | null;
    markerProblem: string | null;
  };
  /** After a refusal for seats (`reason` `seat-limit`): the machines holding them; otherwise null. */
  machines: MachineView[] | null;
  /**
   * After a refusal for the device budget (`reason` `device-budget`): when this machine may activate; with
   * `no-seat` (a floating license): when the first seat may free, and the app asks again.
   */
  retryAt: number | null;
  /** With `no-seat`: the machines holding the floating license's seats, soonest to free first. */
  holders: SeatHolderView[] | null;
  gating: { exportUnlocked: boolean; maxProjects: number | null };
  offline: OfflineView;
  qa: { enabled: boolean; network: NetworkMode; clockOffsetMs: number };
}

/** A failed action, as the renderer shows it. */
export interface DesktopError {
  code: string;
  message: string;
}

export type ActionResult = { ok: true } | { ok: false; error: DesktopError };

export interface ScenarioTimelineEntry {
  /** A step of the file, the set-up before it, or a status change while time passed. */
  kind: "setup" | "step" | "transition";
  /** The scenario file's line of the step; null for set-up and transitions. */
  line: number | null;
  step: string;
  /** Scenario time since the start (ms of the simulator's virtual clock). */
  elapsedMs: number;
  /** The virtual time of the row (epoch ms). */
  at: number;
  /** The client's status afterwards; null while no application runs. */
  status: ClientStatus | null;
  ok: boolean;
  detail: string | null;
}

export interface ScenarioRun {
  /** The scenario's name (its file's `name:`), or the file name when it could not be read. */
  name: string;
  passed: boolean;
  entries: ScenarioTimelineEntry[];
  error: DesktopError | null;
}

export interface FetchLicenseInput {
  licenseKey: string;
  /** Where the license file is downloaded from; `{licenseKey}` in it is replaced by the key. */
  url: string;
}

export interface DesktopBridge {
  getView(): Promise<LicenseView>;
  /** Called with every new view the main process pushes; returns the unsubscribe function. */
  onView(listener: (view: LicenseView) => void): () => void;
  /** Opens the native file dialog in the main process and installs the chosen `.lic`. */
  chooseLicenseFile(): Promise<ActionResult>;
  fetchLicense(input: FetchLicenseInput): Promise<ActionResult>;
  deactivate(): Promise<ActionResult>;
  heartbeat(): Promise<ActionResult>;
  /** Frees the seat of another machine (`MachineView.seatId`); this machine then activates at once. */
  freeSeat(seatId: string): Promise<ActionResult>;
  /** Activation without internet: a request for the vendor's panel, its answer, and the receipt that frees the seat. */
  offline: {
    /** Makes a new activation request (the view then carries it); an earlier one's answer no longer applies. */
    createRequest(): Promise<ActionResult>;
    /** Applies the vendor's response, as pasted. */
    applyResponse(response: string): Promise<ActionResult>;
    /** Opens a file dialog in the main process and applies the response file chosen. */
    chooseResponseFile(): Promise<ActionResult>;
    /** Deletes this machine's offline activation; the view then carries the receipt. */
    deactivate(): Promise<ActionResult>;
    /** Copies the pending request, or the receipt, to the clipboard (the main process holds the text). */
    copy(block: OfflineBlock): Promise<ActionResult>;
    /** Saves the pending request, or the receipt, where a save dialog says. */
    save(block: OfflineBlock): Promise<ActionResult>;
    /** The receipt was handed in: stop keeping it. */
    forgetReceipt(): Promise<ActionResult>;
  };
  qa: {
    setNetwork(mode: NetworkMode): Promise<ActionResult>;
    advanceClock(ms: number): Promise<ActionResult>;
    resetClock(): Promise<ActionResult>;
    restart(): Promise<ActionResult>;
    /** Opens a file dialog for a simulator scenario, runs it, and returns its timeline (null: cancelled). */
    runScenario(): Promise<ScenarioRun | null>;
  };
}

/** IPC channel names (`invoke` for requests, `send` for pushed views). */
export const CHANNELS = {
  getView: "license:get-view",
  view: "license:view",
  chooseLicenseFile: "license:choose-file",
  fetchLicense: "license:fetch",
  deactivate: "license:deactivate",
  heartbeat: "license:heartbeat",
  freeSeat: "license:free-seat",
  offlineCreateRequest: "offline:create-request",
  offlineApplyResponse: "offline:apply-response",
  offlineChooseResponseFile: "offline:choose-response-file",
  offlineDeactivate: "offline:deactivate",
  offlineCopy: "offline:copy",
  offlineSave: "offline:save",
  offlineForgetReceipt: "offline:forget-receipt",
  qaSetNetwork: "qa:set-network",
  qaAdvanceClock: "qa:advance-clock",
  qaResetClock: "qa:reset-clock",
  qaRestart: "qa:restart",
  qaRunScenario: "qa:run-scenario",
} as const;
