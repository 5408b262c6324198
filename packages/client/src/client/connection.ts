import type { ErrorCode } from "@licensing/contracts";
import type { FingerprintComponent } from "@licensing/protocol";
import type { ClientErrorCode } from "../http/error-codes.ts";
import { backoffDelay, jittered } from "../http/retry.ts";
import { ServerApi, type ApiFailure, type ApiResult, type Machine } from "../http/server-api.ts";
import type { VerifiedLicense } from "../license/license-file.ts";
import type { RefusalReason } from "../status/derive-status.ts";
import type { Scheduler } from "./scheduler.ts";

export interface ClientLogger {
  debug?(message: string): void;
  warn?(message: string): void;
}

export interface ConnectionOptions {
  serverUrl: string;
  fetch?: typeof globalThis.fetch;
  requestTimeoutMs?: number;
  machineName?: string | null;
  clock: () => number;
  scheduler: Scheduler;
  license: VerifiedLicense;
  fingerprint: string;
  /** The hashed components sent with each activation (resolved once). */
  components(): Promise<FingerprintComponent[]>;
  log(level: "debug" | "warn", message: string): void;
  /** A trustworthy server time (the response's `Date`). */
  onServerTime(time: number): void;
  /**
   * A marker the server returned for `activationId`, with the certificates that came with it; false when it
   * does not pass the checks.
   */
  onMarker(marker: string, activationId: string, certificates: unknown[]): Promise<boolean>;
  /** The server's signed revocation of the license; false when it does not verify (decision 0049). */
  onRevocation(revocation: string): Promise<boolean>;
  /** The server no longer knows this machine's activation (reset, rebind, transfer). */
  onActivationGone(): void;
  /** Settles when what a timed beat queued (cache writes) is done; a virtual-time scheduler waits for it. */
  afterTimer(): Promise<void>;
}

const DEFAULT_INTERVAL_SECONDS = 900;
// A server's interval is kept within these bounds, so a bad answer neither floods it nor goes silent.
const MIN_INTERVAL_MS = 30_000;
const MAX_INTERVAL_MS = 24 * 60 * 60 * 1000;
const RETRY_BASE_MS = 10_000;
const STOPS_HEARTBEATS: ErrorCode = "license.not_active";
const REVOKED: ErrorCode = "license.revoked";
const ACTIVATION_GONE: ErrorCode = "activation.not_found";
// A budget retry waits this much past `retryAt`, so that the oldest counted device has surely left the window.
const RETRY_AT_MARGIN_MS = 1000;

/** The refusals that `statusDetails.reason` names, by the server's code. */
const REFUSALS: Partial<Record<ClientErrorCode, RefusalReason>> = {
  "activation.seat_limit_reached": "seat-limit",
  "activation.device_budget_exhausted": "device-budget",
  "license.not_active": "license-not-active",
  "activation.fingerprint_mismatch": "device-changed",
  "activation.not_bound": "device-changed",
};

/** The server's last refusal of this machine, until an activation or a heartbeat succeeds. */
export interface Refusal {
  reason: RefusalReason;
  error: ApiFailure;
  machines: Machine[] | null;
  retryAt: number | null;
}

/**
 * The machine's conversation with the server: activation, then heartbeats on the server's interval with
 * ±10 % jitter. Network errors, 408, 5xx and 429 are retried with backoff (never sooner than Retry-After);
 * a full license is asked again at each interval, a device budget after its `retryAt`; any other 4xx stops
 * the schedule: a retry would get the same answer. An activation the server no longer knows (reset or
 * deactivated) is replaced at once by a new activation. A manual `beat` always sends.
 */
export class Connection {
  readonly api: ServerApi;
  /** The activation the server confirmed in this process. */
  activationId: string | null = null;
  lastContactAt: number | null = null;
  lastError: ApiFailure | null = null;
  nextAttemptAt: number | null = null;
  refusal: Refusal | null = null;
  /** The activation was ended on the server and this machine activated again; until the next heartbeat. */
  reactivated = false;
  private timer: unknown = null;
  private failures = 0;
  private intervalMs = DEFAULT_INTERVAL_SECONDS * 1000;
  private activating: Promise<boolean> | null = null;
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly options: ConnectionOptions) {
    this.api = new ServerApi({
      serverUrl: options.serverUrl,
      licenseKey: options.license.licenseKey,
      fetch: options.fetch ?? ((...args) => globalThis.fetch(...args)),
      clock: options.clock,
      requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    });
  }

  get scheduled() {
    return this.timer !== null;
  }

  /** The first activation; follow-ups are scheduled whatever its outcome. */
  start = () => this.activate(false);

  /** One heartbeat now (an activation when this process holds none); reschedules on success. */
  beat(manual: boolean): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return this.activationId === null ? this.activate(manual) : this.heartbeat(manual);
  }

  /** Stops the schedule; resolves once the requests in flight have settled or `waitMs` passed. */
  async close(waitMs: number, wait: (ms: number) => Promise<void>) {
    this.closed = true;
    this.unschedule();
    await Promise.race([Promise.allSettled([...this.inFlight]), wait(waitMs)]);
  }

  /** The license's live activations. */
  async machines(): Promise<ApiResult<Machine[]>> {
    const result = await this.track(this.api.machines());
    if (result.serverTime !== null) this.options.onServerTime(result.serverTime);
    return result;
  }

  /** Releases an activation's seat; `activation.not_found` counts as done (deactivation is idempotent). */
  async deactivate(activationId: string): Promise<boolean> {
    const result = await this.track(this.api.deactivate(activationId));
    this.noteAnswer(result);
    const done = result.ok || result.error.code === ACTIVATION_GONE;
    if (done && this.activationId === activationId) this.activationId = null;
    if (!done) this.options.log("warn", `Deactivation failed: ${result.error.code}: ${result.error.message}`);
    return done;
  }

  private activate(manual: boolean, again = false): Promise<boolean> {
    return (this.activating ??= this.sendActivation(manual, again).finally(() => (this.activating = null)));
  }

  private async sendActivation(manual: boolean, again: boolean) {
    const { fingerprint, machineName } = this.options;
    const result = await this.track(
      this.options
        .components()
        .then((components) =>
          this.api.activate({ hwFingerprint: fingerprint, machineName: machineName ?? null, components }),
        ),
    );
    this.noteAnswer(result);
    if (!result.ok) return this.refused(result.error, result.serverTime, manual, "Activation");
    const { activationId, heartbeatToken, heartbeatIntervalSeconds, healed } = result.value;
    this.intervalMs = Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, heartbeatIntervalSeconds * 1000));
    const certificates = [result.value.certificate, result.value.licenseCertificate];
    if (!(await this.options.onMarker(heartbeatToken, activationId, certificates)))
      return this.markerRejected(manual);
    this.activationId = activationId;
    this.refusal = null;
    this.reactivated = again;
    this.options.log(
      "debug",
      healed ? `Recognised from its components as ${activationId} (healed)` : `Activated as ${activationId}`,
    );
    return this.succeeded();
  }

  private async heartbeat(manual: boolean) {
    const activationId = this.activationId!;
    const result = await this.track(this.api.heartbeat(activationId));
    this.noteAnswer(result);
    if (!result.ok) {
      if (result.error.code === ACTIVATION_GONE && this.activationId === activationId) {
        this.activationId = null;
        this.options.onActivationGone();
        if (this.closed) return false;
        // Reset or deactivated on the server while the license is live: activate again now (the server
        // heals or takes a seat as it decides; it refuses when the license was rebound or revoked).
        this.options.log("warn", "The server no longer knows this activation: activating again");
        return this.activate(manual, true);
      }
      return this.refused(result.error, result.serverTime, manual, "Heartbeat");
    }
    const { heartbeatToken, certificate, licenseCertificate } = result.value;
    if (!(await this.options.onMarker(heartbeatToken, activationId, [certificate, licenseCertificate])))
      return this.markerRejected(manual);
    this.refusal = null;
    this.reactivated = false;
    this.options.log("debug", "Heartbeat answered with a fresh marker");
    return this.succeeded();
  }

  /**
   * A refusal `statusDetails` names; seats are asked again each interval, a device budget after `retryAt`.
   * A revocation the client verified stops the schedule; one it did not is no answer at all (a network
   * attacker cannot stop a program with it): asked again at the next interval.
   */
  private async refused(error: ApiFailure, serverTime: number | null, manual: boolean, what: string) {
    if (error.code === REVOKED) {
      if (error.revocation !== undefined && (await this.options.onRevocation(error.revocation))) {
        this.options.log("warn", `${what} refused: the license was revoked; heartbeats stop`);
        this.unschedule();
        return false;
      }
      this.options.log("warn", `${what} refused as revoked, without a valid signed revocation: ignored`);
      if (!(manual && this.timer !== null)) this.schedule(jittered(this.intervalMs));
      return false;
    }
    const reason = REFUSALS[error.code];
    if (!reason) return this.failed(error, manual, what);
    this.refusal = {
      reason,
      error,
      machines: error.machines ?? null,
      retryAt: error.retryAt ?? null,
    };
    this.reactivated = false;
    if (reason === "seat-limit") {
      this.options.log("warn", `${what} refused: every seat is in use; asking again in an interval`);
      if (!(manual && this.timer !== null)) this.schedule(jittered(this.intervalMs));
      return false;
    }
    if (reason === "device-budget") {
      const now = serverTime ?? this.options.clock();
      const untilRetryAt = error.retryAt === undefined ? 0 : error.retryAt - now + RETRY_AT_MARGIN_MS;
      const delay = Math.max(untilRetryAt, error.retryAfterMs ?? 0);
      this.options.log(
        "warn",
        `${what} refused: no new device before ${new Date(now + delay).toISOString()}`,
      );
      this.schedule(
        delay > 0 ? delay : backoffDelay(++this.failures, { baseMs: RETRY_BASE_MS, maxMs: this.intervalMs }),
      );
      return false;
    }
    return this.failed(error, manual, what);
  }

  private noteAnswer(result: ApiResult<unknown>) {
    if (result.serverTime !== null) this.options.onServerTime(result.serverTime);
    if (result.ok) {
      this.lastContactAt = this.options.clock();
      this.lastError = null;
    } else {
      this.lastError = result.error;
    }
  }

  private succeeded() {
    this.failures = 0;
    this.schedule(jittered(this.intervalMs));
    return true;
  }

  private failed(error: ApiFailure, manual: boolean, what: string) {
    this.options.log("warn", `${what} failed: ${error.code}: ${error.message}`);
    if (!error.retryable) {
      if (error.code === STOPS_HEARTBEATS)
        this.options.log("warn", "The license is not active: heartbeats stop");
      this.unschedule();
    } else if (!(manual && this.timer !== null)) {
      this.failures++;
      this.schedule(
        backoffDelay(this.failures, { baseMs: RETRY_BASE_MS, maxMs: this.intervalMs }, error.retryAfterMs),
      );
    }
    return false;
  }

  private markerRejected(manual: boolean) {
    return this.failed(
      {
        code: "marker.rejected",
        message:
          "The server's marker does not verify with the configured public key or is not this machine's",
        status: null,
        retryable: false,
        retryAfterMs: null,
      },
      manual,
      "Marker check",
    );
  }

  private schedule(delayMs: number) {
    if (this.closed) return;
    this.unschedule();
    this.nextAttemptAt = this.options.clock() + delayMs;
    this.timer = this.options.scheduler.setTimeout(
      () => {
        this.timer = null;
        this.nextAttemptAt = null;
        return this.beat(false).then(this.options.afterTimer);
      },
      delayMs,
      "network",
    );
  }

  private unschedule() {
    if (this.timer !== null) this.options.scheduler.clearTimeout(this.timer);
    this.timer = null;
    this.nextAttemptAt = null;
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise)).catch(() => {});
    return promise;
  }
}
