import { toPublicKey } from "../crypto/verify.ts";
import type { LicenseCheck } from "../license/license-file.ts";
import { checkMarker, type MarkerProblem } from "../license/marker-check.ts";
import { deriveStatus, isUsable, type ClientStatus } from "../status/derive-status.ts";
import { observe, observedFloor, type ObservedTime } from "../status/observed-time.ts";
import { valueAtPath } from "./config-path.ts";
import type { ConfigPath, ConfigValue, FeatureOf, UntypedPath } from "./config-types.ts";
import { Connection } from "./connection.ts";
import { loadLocalLicense, statusInputs, type TrustedMarker } from "./local-license.ts";
import type {
  ClientStatusDetails,
  LicenseClientCoreOptions,
  LicenseInfo,
  StatusListener,
} from "./options.ts";
import { realScheduler, sleep, type Scheduler } from "./scheduler.ts";
import { serializeState } from "./state.ts";

const WATCH_INTERVAL_MS = 60_000;

/**
 * The client library without Node built-ins (spec §4 "Client library behaviour"): verification, the status,
 * activation, heartbeats and the marker cache over a `LicenseStorage`. The Node entry's `LicenseClient`
 * adds files, the default fingerprint and the machine name.
 *
 * `Config` is the type of the license's config (`licensing-codegen` writes it from the template version's
 * `configSchema`): with it, `getConfig` takes only the paths it has and returns their types, and
 * `hasFeature` only the feature names it lists. Without it, both take any string.
 */
export class LicenseClientCore<Config = unknown> {
  protected readonly options: LicenseClientCoreOptions;
  private readonly publicKey: Uint8Array;
  private readonly clock: () => number;
  private readonly scheduler: Scheduler;
  private licenseCheck: LicenseCheck | null = null;
  private marker: TrustedMarker | null = null;
  private markerProblem: MarkerProblem | null = null;
  private activationId: string | null = null;
  private fingerprint: string | null = null;
  private observed: ObservedTime | null = null;
  private persistedAt = -Infinity;
  private connection: Connection | null = null;
  private readonly listeners = new Set<StatusListener>();
  private lastStatus: ClientStatus = "Invalid";
  /** Listeners hear of changes once `initialize` has settled, not of the steps on its way. */
  private settled = false;
  private watchTimer: unknown = null;
  private writes = Promise.resolve();
  private initializing: Promise<boolean> | null = null;
  private disposing: Promise<void> | null = null;
  /** Set when `dispose` has finished: from then on this client writes nothing (a restart owns the files). */
  private closed = false;

  constructor(options: LicenseClientCoreOptions) {
    if (!options.serverUrl) throw new TypeError("serverUrl is required");
    this.options = options;
    this.publicKey = toPublicKey(options.publicKey);
    this.clock = options.clock ?? Date.now;
    this.scheduler = options.scheduler ?? realScheduler;
  }

  /**
   * Reads and verifies the license file, loads the cached marker, then activates (waiting at most
   * `activationTimeoutMs`) and starts the heartbeat. False for a missing file, a bad signature or an
   * expired token; a failed activation does not fail it. Later calls return the first call's answer.
   */
  initialize(): Promise<boolean> {
    return (this.initializing ??= this.load());
  }

  private async load(): Promise<boolean> {
    const fingerprint = this.options.hwFingerprint;
    let resolved: string | undefined;
    const local = await loadLocalLicense(
      this.options.storage,
      this.publicKey,
      async () => (resolved ??= typeof fingerprint === "string" ? fingerprint : await fingerprint()),
      this.clock(),
    );
    this.licenseCheck = local.license;
    this.marker = local.marker;
    this.markerProblem = local.markerProblem;
    this.activationId = local.activationId;
    this.observed = local.observed;
    this.fingerprint = local.fingerprint;
    if (local.markerProblem) this.log("warn", `Ignored the cached marker: ${local.markerProblem}`);
    // The time is observed, and the state written, at initialize.
    const { reason } = this.refreshStatus();
    if (!local.license.ok || reason === "token-expired" || this.disposing) return this.settle(false);
    this.connection = new Connection({
      ...this.options,
      license: local.license.license,
      fingerprint: local.fingerprint!,
      scheduler: this.scheduler,
      clock: this.clock,
      log: (level, message) => this.log(level, message),
      onServerTime: (time) => (this.observed = observe(this.observed, this.clock(), time)),
      onMarker: (marker, activationId) => this.acceptMarker(marker, activationId),
      onActivationGone: () => void this.refreshStatus(),
      afterTimer: () => this.writes,
    });
    this.watch();
    const activation = this.connection.start();
    await Promise.race([activation, sleep(this.options.activationTimeoutMs ?? 5000)]);
    return this.settle(true);
  }

  /** Initialization ends with the files it queued written, then listeners hear the status. */
  private async settle(result: boolean) {
    await this.writes;
    this.settled = true;
    this.refreshStatus();
    return result;
  }

  /** The status now (computed on every read from `clock()`; a read changes nothing). */
  get status(): ClientStatus {
    return this.statusDetails.status;
  }

  /** Active or GracePeriod: the product may be used. */
  get isUsable(): boolean {
    return isUsable(this.status);
  }

  /**
   * Why the status is what it is, and when it changes next: `deriveStatus` over what this client holds, at
   * the clock's reading. A pure read: it writes nothing and calls no listener (`refreshStatus` does).
   */
  get statusDetails(): ClientStatusDetails {
    return this.detailsAt(this.clock());
  }

  /**
   * The one step that acts on the time: observes the clock (the rollback defence, decision 0019), writes
   * the state at most once a minute, and tells the listeners when the status changed. The status watch
   * runs it at each transition and at least once a minute, and so do initialization, heartbeats, markers
   * and deactivation; call it to hear of a change the clock made before the watch does. Returns the details.
   */
  refreshStatus(): ClientStatusDetails {
    const clockNow = this.clock();
    if (this.licenseCheck) {
      this.observed = observe(this.observed, clockNow);
      if (!this.disposing && clockNow - this.persistedAt >= WATCH_INTERVAL_MS) this.persistState();
    }
    const details = this.detailsAt(clockNow);
    this.emitIfChanged(details.status);
    return details;
  }

  private detailsAt(clockNow: number): ClientStatusDetails {
    // The observation carried forward to this reading, as `observe` would make it, without keeping it.
    const observedAt = this.observed ? observedFloor(this.observed, clockNow) : null;
    const details = deriveStatus(statusInputs(this.licenseCheck, this.marker, observedAt), clockNow);
    const connection = this.connection;
    return {
      ...details,
      activationId: this.activationId,
      markerProblem: this.markerProblem,
      lastContactAt: connection?.lastContactAt ?? null,
      lastError: connection?.lastError ?? null,
      heartbeating: connection?.scheduled ?? false,
      nextHeartbeatAt: connection?.nextAttemptAt ?? null,
    };
  }

  /** The verified license's terms; null before `initialize` or when the file did not verify. */
  get license(): LicenseInfo | null {
    if (!this.licenseCheck?.ok) return null;
    const { licenseKey, claims } = this.licenseCheck.license;
    return {
      licenseKey,
      licenseId: claims.lid,
      companyId: claims.sub,
      productCode: claims.tpl,
      version: claims.ver,
      issuedAt: claims.iat * 1000,
      expiresAt: claims.exp * 1000,
      trial: claims.trial,
      hwBinding: { mode: claims.hw.mode, fingerprint: claims.hw.fp },
      config: claims.cfg,
    };
  }

  /** Whether `cfg.features` holds `name`. */
  hasFeature(name: FeatureOf<Config>): boolean {
    return this.licenseCheck?.ok === true && this.licenseCheck.license.claims.cfg.features.includes(name);
  }

  /**
   * The value at a dotted path of the license's config (`limits.maxSeats`), or null when absent. An
   * untyped client says the value's type itself (`getConfig<number>(path)`); a typed one knows it.
   */
  getConfig<T = unknown>(path: UntypedPath<Config>): T | null;
  getConfig<Path extends ConfigPath<Config>>(path: Path): ConfigValue<Config, Path> | null;
  getConfig(path: string): unknown {
    if (!this.licenseCheck?.ok) return null;
    return valueAtPath(this.licenseCheck.license.claims.cfg, path);
  }

  /** Calls `listener(status, previous)` whenever the status changes; returns the unsubscribe function. */
  onStatusChange(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Sends one heartbeat now (activating first if this process holds no activation); the timer keeps running. */
  async heartbeat(): Promise<boolean> {
    if (!this.connection || this.disposing) return false;
    const ok = await this.connection.beat(true);
    await this.writes;
    this.refreshStatus();
    return ok;
  }

  /**
   * Releases this machine's seat now and forgets its marker, so the status becomes Expired until the next
   * activation (a "deactivate this computer" command). False when the server could not be reached.
   */
  async deactivate(): Promise<boolean> {
    const activationId = this.activationId;
    if (!this.connection || activationId === null) return false;
    if (!(await this.connection.deactivate(activationId))) return false;
    this.activationId = null;
    this.marker = null;
    this.write(() => this.options.storage.writeMarker(null));
    this.persistState();
    await this.writes;
    this.refreshStatus();
    return true;
  }

  /**
   * Stops the heartbeat and the status watch, deactivates this machine best-effort (unless
   * `deactivateOnDispose` is false), and waits for the files to be written. Later calls return the same promise.
   */
  dispose(): Promise<void> {
    return (this.disposing ??= this.close());
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.dispose();
  }

  private async close() {
    if (this.watchTimer !== null) this.scheduler.clearTimeout(this.watchTimer);
    this.watchTimer = null;
    await this.initializing?.catch(() => false);
    const connection = this.connection;
    if (connection) {
      const budget = this.options.activationTimeoutMs ?? 5000;
      await connection.close(budget, sleep);
      const activationId = this.activationId;
      if (activationId !== null && this.options.deactivateOnDispose !== false) {
        await Promise.race([connection.deactivate(activationId), sleep(budget)]);
      }
      this.persistState();
    }
    await this.writes;
    this.closed = true;
    this.listeners.clear();
  }

  /** Checks a marker from the server and, when it passes, caches it (spec §4 step 1: apply the fresh marker). */
  private async acceptMarker(text: string, activationId: string): Promise<boolean> {
    if (!this.licenseCheck?.ok || this.closed) return false;
    const checked = await checkMarker(text, this.publicKey, {
      licenseId: this.licenseCheck.license.claims.lid,
      activationId,
      fingerprint: this.fingerprint!,
    });
    if (!checked.ok) {
      this.markerProblem = checked.problem;
      this.log("warn", `The server's marker was refused: ${checked.problem}`);
      return false;
    }
    const previous = this.marker;
    // Markers only move forward: an older one (a replayed answer) never replaces a newer.
    if (previous && checked.payload.iat < previous.payload.iat) return true;
    this.marker = { text: text.trim(), payload: checked.payload };
    this.markerProblem = null;
    this.activationId = activationId;
    const clockNow = this.clock();
    // A newer marker is the server's signed word on the time. It also takes back an observed time that a
    // clock running fast pushed ahead (decision 0019).
    if (!previous || checked.payload.iat > previous.payload.iat) {
      this.observed = observe({ at: checked.payload.iat * 1000, clockAt: clockNow }, clockNow);
    }
    this.write(() => this.options.storage.writeMarker(this.marker!.text));
    this.persistState();
    this.refreshStatus();
    return true;
  }

  /** The status watch: refreshes the status at its next transition, and at least once a minute. */
  private watch() {
    if (this.disposing) return;
    const details = this.refreshStatus();
    const untilNext = details.nextTransitionAt === null ? Infinity : details.nextTransitionAt - details.at;
    this.watchTimer = this.scheduler.setTimeout(
      () => this.watch(),
      Math.max(0, Math.min(WATCH_INTERVAL_MS, untilNext)),
      "watch",
    );
  }

  private persistState() {
    if (!this.licenseCheck?.ok || this.closed) return;
    this.persistedAt = this.clock();
    const text = serializeState({
      licenseId: this.licenseCheck.license.claims.lid,
      activationId: this.activationId,
      observed: this.observed,
    });
    this.write(() => this.options.storage.writeState(text));
  }

  /** Storage writes run one after another, in order; a failure is logged, never thrown at the caller. */
  private write(operation: () => Promise<void>) {
    this.writes = this.writes.then(operation).catch((error: unknown) => {
      this.log("warn", `Could not write the license cache: ${(error as Error)?.message ?? String(error)}`);
    });
  }

  private emitIfChanged(status: ClientStatus) {
    const previous = this.lastStatus;
    if (!this.settled || status === previous) return;
    this.lastStatus = status;
    this.log("debug", `Status ${previous} -> ${status}`);
    for (const listener of [...this.listeners]) {
      try {
        listener(status, previous);
      } catch (error) {
        this.log("warn", `A status listener threw: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  private log(level: "debug" | "warn", message: string) {
    this.options.logger?.[level]?.(`[licensing] ${message}`);
  }
}
