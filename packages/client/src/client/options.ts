import type { PublicKeyInput } from "../crypto/verify.ts";
import type { ApiFailure, LeaseHolder, Machine } from "../http/server-api.ts";
import type { SeatModel } from "@licensing/protocol";
import type { MarkerProblem } from "../license/marker-check.ts";
import type { FingerprintMatchMode, HwBindingMode, TokenConfig } from "../license/types.ts";
import type { ClientStatus, StatusDetails } from "../status/derive-status.ts";
import type { ComponentValues } from "./components.ts";
import type { Seat } from "./seat.ts";
import type { ClientLogger } from "./connection.ts";
import type { Scheduler } from "./scheduler.ts";
import type { FingerprintVersion } from "./state.ts";
import type { LicenseStorage } from "./storage.ts";

export interface LicenseClientCoreOptions {
  /** The service's base address, e.g. `https://licensing.example.com` (or with `/api/v1`, the same). */
  serverUrl: string;
  /**
   * The template's Ed25519 public key: 32 raw bytes or 64 hex characters; never taken from the file. The
   * key of the template's first signing key (its root) verifies every later key's license and markers
   * through the certificates they come with (decision 0049). A list trusts each key in it, e.g. the root
   * and a key the vendor ships ahead of its use.
   */
  publicKey: PublicKeyInput | readonly PublicKeyInput[];
  /** Where the license file, the cached marker and the state live. */
  storage: LicenseStorage;
  /**
   * This machine's fingerprint, or a function that computes it (called once, with the fingerprint version
   * this install uses: see `fingerprintVersion`).
   */
  hwFingerprint: string | ((fingerprintVersion: FingerprintVersion) => Promise<string>);
  /**
   * The default fingerprint's version: 2 leaves the OS version out (a major OS upgrade is not a new
   * machine), 1 keeps it. Default: what this install already uses (the state file says; an install made
   * by a library without version 2 keeps 1), and 2 for a new install.
   */
  fingerprintVersion?: FingerprintVersion;
  /**
   * This machine's properties, kind → value (or a function that reads them, called once), sent hashed with
   * the license key on activation so the server can recognise the machine after one of them changed
   * (issue 22). Kinds: 1–32 characters of `[a-z0-9-]`; at most 16; a null or empty value is left out, and
   * a function that throws sends none. Default, and `false`: none (the Node `LicenseClient` sends this
   * machine's by default).
   */
  components?: ComponentValues | (() => Promise<ComponentValues>) | false;
  /** Sent on activation, shown in the panel. */
  machineName?: string | null;
  /** The HTTP client; a caller's is never closed by the library. Default: `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Epoch milliseconds; every time-dependent decision reads it. Default: `Date.now`. */
  clock?: () => number;
  /** How long `initialize` waits for the activation (real ms); it goes on in the background. Default 5000. */
  activationTimeoutMs?: number;
  /** How long one request may take (real ms). Default 30000. */
  requestTimeoutMs?: number;
  /** Timers for the heartbeat, retries and the status watch. Default: real timers, `unref`ed. */
  scheduler?: Scheduler;
  /** Deactivate this machine on `dispose` (spec §4). Default true. */
  deactivateOnDispose?: boolean;
  /** Where the library says what it does (`debug`) and what went wrong (`warn`). Default: silent. */
  logger?: ClientLogger;
}

/** What `statusDetails` adds to the pure status: the connection to the server. */
export interface ClientStatusDetails extends StatusDetails {
  activationId: string | null;
  /** With `reason` `seat-limit` (or a refusal for seats behind a cached marker): the machines holding them. */
  machines: Machine[] | null;
  /**
   * With a `device-budget` refusal: when a new device may activate (epoch ms); with `no-seat`: when the
   * first leased seat may free. The client retries then.
   */
  retryAt: number | null;
  /** A floating license's seat (decision 0052); null for a node-locked license. */
  seat: Seat | null;
  /** With `no-seat`: the machines holding the seats (name, since, until), soonest to free first. */
  holders: LeaseHolder[] | null;
  /** Why the cached or the last received marker was not trusted; null when it was (or there was none). */
  markerProblem: MarkerProblem | null;
  /** When the server last answered a call successfully (clock time), in this process. */
  lastContactAt: number | null;
  /** The last failed call's error; cleared by a success. */
  lastError: ApiFailure | null;
  /** Whether heartbeats (or activation retries) are scheduled; false after `license.not_active`. */
  heartbeating: boolean;
  /** When the next heartbeat or retry is due (clock time), when one is scheduled. */
  nextHeartbeatAt: number | null;
}

/** What the verified license says, for an about box. */
export interface LicenseInfo {
  licenseKey: string;
  licenseId: string;
  /** The licensee company (`sub`). */
  companyId: string;
  productCode: string;
  /** currentVersion: grows on transfer and rebind. */
  version: number;
  issuedAt: number;
  expiresAt: number;
  trial: boolean;
  hwBinding: { mode: HwBindingMode; fingerprint: string | null };
  /**
   * How far the machine's components may drift and the server still recognise it (`exact`, `strict`,
   * `fuzzy`, `loose`); `fuzzy` for a token signed before licenses carried it.
   */
  fingerprintMatch: FingerprintMatchMode;
  /** `floating`: a seat is leased while the program runs (decision 0052); `nodeLocked` for older tokens. */
  seatModel: SeatModel;
  /** A floating license's lease length and most borrowing days; null for a node-locked one. */
  leaseSeconds: number | null;
  maxBorrowDays: number | null;
  config: TokenConfig;
}

export type StatusListener = (status: ClientStatus, previous: ClientStatus) => void;
