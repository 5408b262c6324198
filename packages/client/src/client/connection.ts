import type { ErrorCode } from "@licensing/contracts";
import { backoffDelay, jittered } from "../http/retry.ts";
import { ServerApi, type ApiFailure, type ApiResult } from "../http/server-api.ts";
import type { VerifiedLicense } from "../license/license-file.ts";
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
  log(level: "debug" | "warn", message: string): void;
  /** A trustworthy server time (the response's `Date`). */
  onServerTime(time: number): void;
  /** A marker the server returned for `activationId`; false when it does not pass the checks. */
  onMarker(marker: string, activationId: string): Promise<boolean>;
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
const ACTIVATION_GONE: ErrorCode = "activation.not_found";

/**
 * The machine's conversation with the server: activation, then heartbeats on the server's interval with
 * ±10 % jitter. Network errors, 5xx and 429 are retried with backoff (never sooner than Retry-After);
 * any other 4xx stops the schedule: a retry would get the same answer. A manual `beat` always sends.
 */
export class Connection {
  readonly api: ServerApi;
  /** The activation the server confirmed in this process. */
  activationId: string | null = null;
  lastContactAt: number | null = null;
  lastError: ApiFailure | null = null;
  nextAttemptAt: number | null = null;
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

  /** Releases an activation's seat; `activation.not_found` counts as done (deactivation is idempotent). */
  async deactivate(activationId: string): Promise<boolean> {
    const result = await this.track(this.api.deactivate(activationId));
    this.noteAnswer(result);
    const done = result.ok || result.error.code === ACTIVATION_GONE;
    if (done && this.activationId === activationId) this.activationId = null;
    if (!done) this.options.log("warn", `Deactivation failed: ${result.error.code}: ${result.error.message}`);
    return done;
  }

  private activate(manual: boolean): Promise<boolean> {
    return (this.activating ??= this.sendActivation(manual).finally(() => (this.activating = null)));
  }

  private async sendActivation(manual: boolean) {
    const { fingerprint, machineName } = this.options;
    const result = await this.track(
      this.api.activate({ hwFingerprint: fingerprint, machineName: machineName ?? null }),
    );
    this.noteAnswer(result);
    if (!result.ok) return this.failed(result.error, manual, "Activation");
    const { activationId, heartbeatToken, heartbeatIntervalSeconds } = result.value;
    this.intervalMs = Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, heartbeatIntervalSeconds * 1000));
    if (!(await this.options.onMarker(heartbeatToken, activationId))) return this.markerRejected(manual);
    this.activationId = activationId;
    this.options.log("debug", `Activated as ${activationId}`);
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
      }
      return this.failed(result.error, manual, "Heartbeat");
    }
    if (!(await this.options.onMarker(result.value.heartbeatToken, activationId)))
      return this.markerRejected(manual);
    this.options.log("debug", "Heartbeat answered with a fresh marker");
    return this.succeeded();
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
