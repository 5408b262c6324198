import type { FingerprintComponent } from "@licensing/protocol";
import { addCertificate, trustedKeys, type TrustedKeys } from "../crypto/key-chain.ts";
import { verifyRevocation, verifyRevocationList } from "../crypto/verify.ts";
import { LicensingApiError, type Lease, type Machine } from "../http/server-api.ts";
import type { LicenseCheck, VerifiedLicense } from "../license/license-file.ts";
import { checkMarker, type MarkerProblem } from "../license/marker-check.ts";
import type { CertificateProblem, TrustedCertificate } from "../license/offline-certificate.ts";
import {
  deriveStatus,
  isUsable,
  type ClientStatus,
  type StatusDetails,
  type StatusReason,
} from "../status/derive-status.ts";
import { observe, observedFloor, type ObservedTime } from "../status/observed-time.ts";
import { valueAtPath } from "./config-path.ts";
import type { ConfigPath, ConfigValue, FeatureOf, UntypedPath } from "./config-types.ts";
import { hashComponents } from "./components.ts";
import { Connection, type Refusal } from "./connection.ts";
import { loadLocalLicense, statusInputs, type TrustedMarker } from "./local-license.ts";
import type {
  ClientStatusDetails,
  LicenseClientCoreOptions,
  LicenseInfo,
  StatusListener,
} from "./options.ts";
import { realScheduler, sleep, type Scheduler } from "./scheduler.ts";
import type { HeldLease, Seat, SeatKeeper, SeatListener } from "./seat.ts";
import { serializeState, type FingerprintVersion, type PendingOffline } from "./state.ts";

const WATCH_INTERVAL_MS = 60_000;
/** Air-gapped activation's code, loaded when first used (decision 0051). */
const offline = () => import("../offline.ts");
/** A floating license's lease code, loaded for a floating license only (decisions 0051, 0052). */
const leases = () => import("./seat.ts");

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
  private readonly keys: TrustedKeys;
  private readonly clock: () => number;
  private readonly scheduler: Scheduler;
  private licenseCheck: LicenseCheck | null = null;
  private marker: TrustedMarker | null = null;
  private markerProblem: MarkerProblem | null = null;
  private certificate: TrustedCertificate | null = null;
  private pendingOffline: PendingOffline | null = null;
  /** When the license was revoked (epoch ms), once a verified revocation said so. */
  private revokedAt: number | null = null;
  private activationId: string | null = null;
  private fingerprint: string | null = null;
  private fingerprintVersion: FingerprintVersion | null = null;
  private observed: ObservedTime | null = null;
  private persistedAt = -Infinity;
  private connection: Connection | null = null;
  /** A floating license's lease (decision 0052); null for a node-locked one. */
  private seatKeeper: SeatKeeper | null = null;
  private restoredLease: HeldLease | null = null;
  private readonly seatListeners = new Set<SeatListener>();
  private lastSeat = "";
  private readonly listeners = new Set<StatusListener>();
  private lastStatus: ClientStatus = "Invalid";
  /** Listeners hear of changes once `initialize` has settled, not of the steps on its way. */
  private settled = false;
  private watchTimer: unknown = null;
  private writes = Promise.resolve();
  private initializing: Promise<boolean> | null = null;
  private reading: Promise<void> | null = null;
  private disposing: Promise<void> | null = null;
  /** Set when `dispose` has finished: from then on this client writes nothing (a restart owns the files). */
  private closed = false;

  constructor(options: LicenseClientCoreOptions) {
    if (!options.serverUrl) throw new TypeError("serverUrl is required");
    this.options = options;
    this.keys = trustedKeys(options.publicKey);
    this.clock = options.clock ?? Date.now;
    this.scheduler = options.scheduler ?? realScheduler;
  }

  /**
   * Reads and verifies the license file, loads the cached marker, then activates (waiting at most
   * `activationTimeoutMs`) and starts the heartbeat. False for a missing file, a bad signature, an expired
   * token or a license known to be revoked; a failed activation does not fail it. Later calls return the
   * first call's answer.
   */
  initialize(): Promise<boolean> {
    return (this.initializing ??= this.load());
  }

  /** Reads and verifies the files once, without the network: `initialize` and the offline steps start here. */
  private readLocal(): Promise<void> {
    return (this.reading ??= this.read());
  }

  private async read() {
    const fingerprint = this.options.hwFingerprint;
    let resolved: string | undefined;
    const local = await loadLocalLicense(
      this.options.storage,
      this.keys,
      async (version) =>
        (resolved ??= typeof fingerprint === "string" ? fingerprint : await fingerprint(version)),
      this.clock(),
      this.options.fingerprintVersion,
    );
    this.licenseCheck = local.license;
    this.marker = local.marker;
    this.markerProblem = local.markerProblem;
    this.revokedAt = local.revokedAt;
    this.activationId = local.activationId;
    this.observed = local.observed;
    this.fingerprint = local.fingerprint;
    this.fingerprintVersion = local.fingerprintVersion;
    this.certificate = local.certificate;
    const { state } = local;
    if (local.license.ok && state?.licenseId === local.license.license.claims.lid) {
      this.pendingOffline = state.pendingOffline ?? null;
      // A borrowed lease works offline after a restart, once its token verifies again.
      const token = this.floating && state.borrowedLease;
      if (token) this.restoredLease = await this.checkLease(token, this.activationId, true);
    }
    if (local.markerProblem) this.log("warn", `Ignored the cached marker: ${local.markerProblem}`);
    if (local.certificateProblem) {
      this.log("warn", `Ignored the offline activation: ${local.certificateProblem}`);
    }
  }

  private async load(): Promise<boolean> {
    await this.readLocal();
    const license = this.licenseCheck!;
    // The time is observed, and the state written, at initialize.
    const { reason } = this.refreshStatus();
    if (!license.ok || reason === "token-expired" || reason === "revoked" || this.disposing)
      return this.settle(false);
    // Activated offline: this license makes no network call (decision 0050).
    if (this.certificate) {
      void this.watch();
      return this.settle(true);
    }
    let components: Promise<FingerprintComponent[]> | undefined;
    const licenseKey = license.license.licenseKey;
    this.connection = new Connection({
      ...this.options,
      license: license.license,
      fingerprint: this.fingerprint!,
      components: () => (components ??= this.hashedComponents(licenseKey)),
      scheduler: this.scheduler,
      clock: this.clock,
      log: (level, message) => this.log(level, message),
      onServerTime: (time) => (this.observed = observe(this.observed, this.clock(), time)),
      onMarker: (marker, activationId, certificates) => this.acceptMarker(marker, activationId, certificates),
      onRevocation: (revocation) => this.acceptRevocation(revocation),
      onActivationGone: () => {
        if (this.certificate) return;
        // The marker keeps its offline window (rule 5), but this machine holds no activation until the
        // next one succeeds.
        this.activationId = null;
        this.persistState();
        this.refreshStatus();
      },
      afterTimer: () => this.writes,
    });
    if (this.floating) {
      const connection = this.connection;
      const { SeatKeeper } = await leases();
      this.seatKeeper = new SeatKeeper({
        api: connection.api,
        clock: this.clock,
        scheduler: this.scheduler,
        leaseMs: (license.license.claims.ls ?? 900) * 1000,
        activationId: () => this.activationId,
        verify: (lease, activationId) => this.verifyLease(lease, activationId),
        changed: () => {
          this.persistState();
          this.refreshStatus();
        },
        revoked: (revocation) => this.acceptRevocation(revocation),
        // A heartbeat finds the activation gone and activates again; the new marker kicks the seat.
        activationGone: () => void connection.beat(false),
        log: (level, message) => this.log(level, message),
        afterTimer: () => this.writes,
      });
      this.seatKeeper.lease = this.restoredLease;
    }
    void this.watch();
    const activation = this.connection.start().then(() => this.seatKeeper?.kick());
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
    const keeper = this.seatKeeper;
    const lease = keeper ? keeper.lease : this.restoredLease;
    const details = deriveStatus(
      {
        ...statusInputs(this.licenseCheck, this.marker, observedAt, this.certificate, this.revokedAt),
        ...(this.floating
          ? { lease: lease && { expiresAt: lease.expiresAt, borrowed: lease.borrowedUntil !== null } }
          : {}),
      },
      clockNow,
    );
    const connection = this.connection;
    const refusal = connection?.refusal ?? null;
    const seat = this.seatAt(clockNow);
    return {
      ...details,
      ...this.explained(details),
      activationId: this.activationId,
      machines: refusal?.machines ?? null,
      retryAt: seat?.retryAt ?? refusal?.retryAt ?? null,
      seat,
      holders: seat?.holders ?? null,
      markerProblem: this.markerProblem,
      lastContactAt: connection?.lastContactAt ?? null,
      lastError: keeper?.lastError ?? connection?.lastError ?? null,
      heartbeating: connection?.scheduled ?? false,
      nextHeartbeatAt: connection?.nextAttemptAt ?? null,
    };
  }

  /**
   * What the server said, where the rules alone would hide it: an empty offline window (`no-marker`) names
   * the server's refusal, or the failure that left it empty; a marker from a new activation after the
   * server ended the previous one reads `reactivated`.
   */
  private explained(details: StatusDetails): { reason: StatusReason; message: string } {
    const { reason, message } = details;
    const connection = this.connection;
    if (!connection) return { reason, message };
    const keeper = this.seatKeeper;
    if (keeper && (reason === "no-lease" || reason === "lease-expired")) {
      const refusal = connection.refusal;
      return refusal?.reason === "license-not-active"
        ? refusalText(refusal)
        : keeper.explain(reason, message);
    }
    if (reason === "marker-valid" && connection.reactivated) {
      return {
        reason: "reactivated",
        message: `The server had ended this machine's activation; it activated again. ${message}`,
      };
    }
    if (reason !== "no-marker") return { reason, message };
    if (connection.refusal) return refusalText(connection.refusal);
    const error = connection.lastError;
    if (!error) return { reason, message };
    const why =
      error.status === null
        ? `the server could not be reached (${error.message})`
        : `the server answered ${error.code}: ${error.message}`;
    return { reason, message: `No valid offline marker, and ${why}: the offline window is empty` };
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
      fingerprintMatch: claims.fm ?? "fuzzy",
      seatModel: claims.sm ?? "nodeLocked",
      leaseSeconds: claims.sm === "floating" ? (claims.ls ?? null) : null,
      maxBorrowDays: claims.sm === "floating" ? (claims.mb ?? null) : null,
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

  /**
   * This machine's seat of a floating license (decision 0052): held, borrowed or none, with the holders and
   * when to expect one when every seat is taken. Null for a node-locked license (and before `initialize`).
   */
  get seat(): Seat | null {
    return this.seatAt(this.clock());
  }

  /** Calls `listener(seat)` whenever the seat of a floating license changes; returns the unsubscribe function. */
  onSeatChange(listener: SeatListener): () => void {
    this.seatListeners.add(listener);
    return () => void this.seatListeners.delete(listener);
  }

  /**
   * Borrows this machine's seat of a floating license until `until` (at most the license's `maxBorrowDays`
   * ahead) for offline work: the lease is kept across restarts, renewed by nobody, and holds the seat until
   * then (or `returnBorrowed`). Rejects with a `LicensingApiError` (`lease.borrow_not_allowed`,
   * `lease.borrow_too_long`, `request.invalid` for a past `until`, or the network's) and without a seat.
   */
  async borrow(until: Date | number): Promise<Seat> {
    const seat = await this.requireSeat().borrow(+until);
    await this.writes;
    return seat;
  }

  /**
   * Returns a borrowed seat early: the lease is released (the seat frees on the server at once), then, while
   * the program runs, an ordinary lease is taken again (released by `dispose`). Rejects with a
   * `LicensingApiError` when the server could not be reached (the borrow stays).
   */
  async returnBorrowed(): Promise<Seat> {
    const seat = await this.requireSeat().returnBorrowed();
    await this.writes;
    return seat;
  }

  private requireSeat(): SeatKeeper {
    this.requireConnection();
    if (!this.seatKeeper || this.disposing) throw new Error("The license is not floating (or is disposed)");
    return this.seatKeeper;
  }

  private get floating() {
    return this.licenseCheck?.ok === true && this.licenseCheck.license.claims.sm === "floating";
  }

  private seatAt(now: number): Seat | null {
    return this.floating ? (this.seatKeeper?.seat(now) ?? null) : null;
  }

  private async checkLease(token: string, activationId: string | null, borrowed: boolean) {
    const held = await (
      await leases()
    ).checkLeaseToken(
      token,
      this.keys,
      { licenseId: this.requireLicense().claims.lid, fingerprint: this.fingerprint, activationId },
      borrowed,
    );
    if (!held)
      this.log("warn", "A lease token was refused: not signed by a trusted key, or not this machine's");
    return held;
  }

  private async verifyLease(lease: Lease, activationId: string | null): Promise<HeldLease | null> {
    for (const certificate of [lease.certificate, lease.licenseCertificate])
      if (typeof certificate === "string") await addCertificate(this.keys, certificate);
    const held = await this.checkLease(lease.leaseToken, activationId, false);
    return held?.leaseId === lease.leaseId ? held : null;
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
   * The license's live activations (this machine's among them when it holds one: compare with
   * `statusDetails.activationId`), for a "free a seat" screen. Rejects with a `LicensingApiError` when the
   * server cannot be reached or refuses, and with an `Error` before `initialize` has verified the license.
   */
  async listMachines(): Promise<Machine[]> {
    const connection = this.requireConnection();
    const result = await connection.machines();
    if (!result.ok) throw new LicensingApiError(result.error);
    return result.value;
  }

  /**
   * Releases another machine's seat (the remote deactivation, with this license's key), then, when this
   * machine holds no activation (its activation was refused for seats), activates it at once. Given this
   * machine's own activation id, it is `deactivate()`. False when the server could not be reached or
   * refused the deactivation.
   */
  async deactivateMachine(activationId: string): Promise<boolean> {
    const connection = this.requireConnection();
    if (activationId === this.activationId) return this.deactivate();
    if (!(await connection.deactivate(activationId))) return false;
    if (connection.activationId === null && !this.disposing) await connection.beat(true);
    await this.writes;
    this.refreshStatus();
    return true;
  }

  private requireConnection(): Connection {
    if (this.certificate) throw new Error("This machine is activated offline: it makes no network call");
    if (!this.connection) {
      throw new Error("The license is not loaded: call initialize() first (and check that it verified)");
    }
    return this.connection;
  }

  /** The configured components, hashed with the license key; none when reading them failed. */
  private async hashedComponents(licenseKey: string): Promise<FingerprintComponent[]> {
    const option = this.options.components;
    try {
      const values = typeof option === "function" ? await option() : option;
      if (!values) return [];
      const { components, skipped } = await hashComponents(licenseKey, values);
      if (skipped.length) this.log("warn", `Components left out (kind or count): ${skipped.join(", ")}`);
      return components;
    } catch (error) {
      this.log("warn", `Could not read the components: ${(error as Error)?.message ?? String(error)}`);
      return [];
    }
  }

  /**
   * Air-gapped activation, step 1 (decision 0050): an armored `LICENSE ACTIVATION REQUEST` block for the
   * panel, at most 1,200 characters (one QR code), holding the license id, this machine's fingerprint,
   * components and name, a fresh nonce and the time, with an HMAC keyed by the license key. No network
   * and no `initialize` needed. The nonce is kept in the state beside the license file: only the answer
   * to this request (the latest one made) can be applied. Rejects when the license file does not verify.
   */
  async createOfflineActivationRequest(): Promise<string> {
    const license = await this.verifiedLicense();
    const { newNonce, offlineRequestText } = await offline();
    const nonce = newNonce();
    const { text, droppedComponents } = await offlineRequestText(license.licenseKey, {
      lid: license.claims.lid,
      fp: this.fingerprint!,
      components: await this.hashedComponents(license.licenseKey),
      machineName: this.options.machineName?.trim().slice(0, 200) || null,
      nonce,
      iat: Math.floor(this.statusDetails.at / 1000),
    });
    if (droppedComponents.length) {
      this.log("warn", `Left out of the request to fit a QR code: ${droppedComponents.join(", ")}`);
    }
    this.pendingOffline = { nonce, request: text };
    this.persistState();
    await this.writes;
    return text;
  }

  /** The request made by `createOfflineActivationRequest` that awaits its answer; null when none does. */
  get pendingOfflineRequest(): string | null {
    return this.pendingOffline?.request ?? null;
  }

  /**
   * Air-gapped activation, step 3: applies the panel's `LICENSE ACTIVATION` block. It must verify with the
   * configured public key and answer this machine's pending request (its fingerprint and nonce); it is
   * then kept where the marker is, and from then on this client makes no network call for the license.
   * The status is Active until the certificate's end or the token's, whichever comes first, then
   * Expired (no grace period). Rejects with an `OfflineActivationError` naming the reason otherwise.
   */
  async applyOfflineActivation(response: string): Promise<ClientStatusDetails> {
    const license = await this.verifiedLicense();
    const pending = this.pendingOffline;
    const checked = await (
      await offline()
    ).checkCertificate(response, this.keys, {
      licenseId: license.claims.lid,
      fingerprint: this.fingerprint!,
      nonce: pending?.nonce ?? null,
    });
    if (!checked.ok) throw new OfflineActivationError(checked.problem);
    const { certificate } = checked;
    if (certificate.claims.exp * 1000 <= this.statusDetails.at) throw new OfflineActivationError("expired");
    this.certificate = certificate;
    this.marker = null;
    this.activationId = certificate.claims.aid;
    const clockNow = this.clock();
    this.observed = observe(this.observed, clockNow, certificate.claims.iat * 1000);
    const connection = this.connection;
    this.connection = null;
    await connection?.close(0, sleep);
    this.write(() => this.options.storage.writeMarker(certificate.text));
    this.persistState();
    await this.writes;
    return this.refreshStatus();
  }

  /**
   * Offline deactivation: deletes the offline certificate (the status becomes Expired) and returns an
   * armored `LICENSE DEACTIVATION` receipt (license, activation, the certificate's nonce, the time, with
   * an HMAC keyed by the license key) for the panel, which frees the seat with it. Rejects when this
   * machine holds no offline activation.
   */
  async deactivateOffline(): Promise<string> {
    const license = await this.verifiedLicense();
    const certificate = this.certificate;
    if (!certificate) throw new Error("This machine holds no offline activation to deactivate");
    const { lid, aid, nonce } = certificate.claims;
    const receipt = await (
      await offline()
    ).offlineReceiptText(license.licenseKey, {
      lid,
      aid,
      nonce,
      iat: Math.floor(this.statusDetails.at / 1000),
    });
    this.certificate = null;
    this.pendingOffline = null;
    this.activationId = null;
    this.write(() => this.options.storage.writeMarker(null));
    this.persistState();
    await this.writes;
    this.refreshStatus();
    return receipt;
  }

  private async verifiedLicense(): Promise<VerifiedLicense> {
    await this.readLocal();
    const check = this.licenseCheck!;
    if (!check.ok) throw new Error(`The license file did not verify: ${check.problem}`);
    return check.license;
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
      const keeper = this.seatKeeper;
      // An ordinary lease is released; a borrowed one is kept, and so is the activation it belongs to.
      if (keeper) await Promise.race([keeper.close(true), sleep(budget)]);
      const borrowed = keeper?.seat(this.clock()).state === "borrowed";
      await connection.close(budget, sleep);
      const activationId = this.activationId;
      if (activationId !== null && !borrowed && this.options.deactivateOnDispose !== false) {
        await Promise.race([connection.deactivate(activationId), sleep(budget)]);
      }
      this.persistState();
    }
    await this.writes;
    this.closed = true;
    this.listeners.clear();
    this.seatListeners.clear();
  }

  /**
   * Makes the license `Revoked` when a revocation list names it (decision 0049): the list must verify with
   * the configured key (or a key it certified), and the license's revocation be `immediate`. The status
   * is kept across restarts. Resolves to whether the list named this license; a list that does not verify
   * changes nothing (and resolves false). Throws before `initialize` has verified the license.
   */
  async applyRevocationList(list: string): Promise<boolean> {
    const license = this.requireLicense();
    const payload = await verifyRevocationList(list, this.keys);
    const entry = payload?.revoked.find((r) => r.lid === license.claims.lid);
    if (!payload) this.log("warn", "The revocation list does not verify with the configured key: ignored");
    return entry ? this.revoke(entry.revokedAt) : false;
  }

  /** The server's signed revocation (a 403 `license.revoked`): believed only when it verifies. */
  private async acceptRevocation(text: string): Promise<boolean> {
    if (!this.licenseCheck?.ok) return false;
    const payload = await verifyRevocation(text, this.keys);
    return payload?.lid === this.licenseCheck.license.claims.lid ? this.revoke(payload.revokedAt) : false;
  }

  /**
   * Revoked for good: the cached marker is deleted (so removing the state file brings back no offline
   * window) and the time kept in the state. Only a license whose token says `rv: immediate`.
   */
  private async revoke(revokedAtSeconds: number): Promise<boolean> {
    if (!this.licenseCheck?.ok || this.licenseCheck.license.claims.rv !== "immediate") return false;
    this.revokedAt ??= revokedAtSeconds * 1000;
    this.marker = null;
    if (this.seatKeeper) {
      this.seatKeeper.lease = null;
      void this.seatKeeper.close(false);
    }
    this.write(() => this.options.storage.writeMarker(null));
    this.persistState();
    await this.writes;
    this.refreshStatus();
    return true;
  }

  private requireLicense() {
    if (!this.licenseCheck?.ok) {
      throw new Error("The license is not loaded: call initialize() first (and check that it verified)");
    }
    return this.licenseCheck.license;
  }

  /** Checks a marker from the server and, when it passes, caches it (spec §4 step 1: apply the fresh marker). */
  private async acceptMarker(text: string, activationId: string, certificates: unknown[]): Promise<boolean> {
    if (!this.licenseCheck?.ok || this.closed || this.certificate || this.revokedAt !== null) return false;
    for (const certificate of certificates)
      if (typeof certificate === "string") await addCertificate(this.keys, certificate);
    const checked = await checkMarker(text, this.keys, {
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
    // The state first: it holds the certificate a marker of a rotated key needs after a restart.
    this.persistState();
    this.write(() => this.options.storage.writeMarker(this.marker!.text));
    this.refreshStatus();
    // A floating license leases a seat once the machine is activated (again).
    void this.seatKeeper?.kick();
    return true;
  }

  /**
   * The status watch: refreshes the status at its next transition, and at least once a minute. Returns the
   * renewal it started after a sleep, so that the scheduler can wait for it.
   */
  private watch(): Promise<void> | undefined {
    if (this.disposing) return undefined;
    const renewal = this.seatKeeper?.due();
    const details = this.refreshStatus();
    const untilNext = details.nextTransitionAt === null ? Infinity : details.nextTransitionAt - details.at;
    this.watchTimer = this.scheduler.setTimeout(
      () => this.watch(),
      Math.max(0, Math.min(WATCH_INTERVAL_MS, untilNext)),
      "watch",
    );
    return renewal;
  }

  private persistState() {
    if (!this.licenseCheck?.ok || this.closed) return;
    this.persistedAt = this.clock();
    const text = serializeState({
      licenseId: this.licenseCheck.license.claims.lid,
      activationId: this.activationId,
      observed: this.observed,
      fingerprintVersion: this.fingerprintVersion,
      pendingOffline: this.pendingOffline,
      certificates: [...this.keys.certified.values()].map((c) => c.text),
      revokedAt: this.revokedAt,
      borrowedLease: this.borrowedToken(),
    });
    this.write(() => this.options.storage.writeState(text));
  }

  private borrowedToken() {
    const lease = this.seatKeeper ? this.seatKeeper.lease : this.restoredLease;
    return lease?.borrowedUntil != null && this.clock() < lease.expiresAt ? lease.token : null;
  }

  /** Storage writes run one after another, in order; a failure is logged, never thrown at the caller. */
  private write(operation: () => Promise<void>) {
    this.writes = this.writes.then(operation).catch((error: unknown) => {
      this.log("warn", `Could not write the license cache: ${(error as Error)?.message ?? String(error)}`);
    });
  }

  private emitIfChanged(status: ClientStatus) {
    const seat = this.seatAt(this.clock());
    const seatText = JSON.stringify(seat);
    if (this.settled && seat && seatText !== this.lastSeat) {
      this.lastSeat = seatText;
      for (const listener of [...this.seatListeners]) {
        try {
          listener(seat);
        } catch (error) {
          this.log("warn", `A seat listener threw: ${(error as Error)?.message ?? String(error)}`);
        }
      }
    }
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

const iso = (ms: number) => new Date(ms).toISOString();

const CERTIFICATE_PROBLEMS: Record<CertificateProblem, string> = {
  malformed: "not a LICENSE ACTIVATION block",
  "signature-invalid": "not signed with the configured public key",
  "other-license": "made for another license",
  "other-machine": "made for another machine",
  "other-request": "made for another request than the pending one",
  expired: "its activation has ended",
};

/** `applyOfflineActivation` refused the response; `reason` says why. */
export class OfflineActivationError extends Error {
  constructor(readonly reason: CertificateProblem) {
    super(`The offline activation response was refused: ${CERTIFICATE_PROBLEMS[reason]}`);
    this.name = "OfflineActivationError";
  }
}

/** `statusDetails.reason` and `message` for a refusal of the server's. */
function refusalText({ reason, error, machines, retryAt }: Refusal): {
  reason: StatusReason;
  message: string;
} {
  switch (reason) {
    case "seat-limit":
      return {
        reason,
        message: `Every seat of the license is in use${machines ? ` (${machines.length} machines)` : ""}: free one (deactivateMachine) or wait; the server said: ${error.message}`,
      };
    case "device-budget":
      return {
        reason,
        message: `The license has activated as many new devices as its window allows${retryAt === null ? "" : `; a new device may activate from ${iso(retryAt)}`}`,
      };
    case "license-not-active":
      return {
        reason,
        message: `The license is not active (revoked, suspended or expired): ${error.message}`,
      };
    case "device-changed":
      return {
        reason,
        message: `The license is bound to another machine or awaits a rebind (${error.code}): ${error.message}`,
      };
    case "no-seat":
      return { reason, message: error.message };
  }
}
