import { readFile } from "node:fs/promises";
import {
  defaultFingerprint,
  fingerprintSources,
  installIdFile,
  LicenseClient,
  type ClientLogger,
} from "@licensing/client";
import {
  NETWORK_MODES,
  type ActionResult,
  type FetchLicenseInput,
  type FingerprintView,
  type LicenseView,
  type NetworkMode,
} from "../shared/bridge.ts";
import { asResult, DesktopActionError } from "./desktop-error.ts";
import {
  checkCandidate,
  downloadLicenseFile,
  installLicenseText,
  licenseKeyOfFile,
  licenseStore,
  readChosenFile,
  requireLicenseShape,
  resolvePublicKey,
} from "./license-files.ts";
import { qaControls, type QaControls } from "./qa-controls.ts";
import { licenseView } from "./license-view.ts";
import { seatIds } from "./seat-ids.ts";

export interface LicenseSessionOptions {
  /** The app's own folder (Electron's `userData`): the installed license and the SDK's cache live here. */
  dataDir: string;
  serverUrl: string;
  /** The product's Ed25519 public key (64 hex); null pins the server's on first run (decision 0033). */
  publicKey: string | null;
  /** Whether the QA panel's levers work (`--qa` or `LICENSING_QA=1`). */
  qa: boolean;
  /** Default: the SDK's `defaultFingerprint()`. */
  hwFingerprint?: string;
  machineName?: string;
  /** The real clock under the QA offset. Default `Date.now`. */
  clock?: () => number;
  /** The real network under the QA switch. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  activationTimeoutMs?: number;
  /** How often the view is re-read to push what changed in the background (a marker, an error). */
  refreshIntervalMs?: number;
  logger?: ClientLogger & { error?: (message: string, error: unknown) => void };
}

const MAX_CLOCK_STEP_MS = 400 * 86_400_000;

export const QA_DISABLED = {
  code: "qa.disabled",
  message: "The QA panel is off: start the app with --qa or LICENSING_QA=1",
} as const;

/**
 * The main process's license logic, free of Electron: installs a license file, runs the SDK's
 * `LicenseClient` over it, turns its state into the renderer's `LicenseView` and pushes every change.
 * The QA levers (network, clock, restart) act on this session only.
 */
export class LicenseSession {
  readonly qa: QaControls;
  private readonly paths: ReturnType<typeof licenseStore>;
  private client: LicenseClient | null = null;
  private fingerprint: FingerprintView | null = null;
  private readonly seatId = seatIds();
  private readonly listeners = new Set<(view: LicenseView) => void>();
  private lastPushed = "";
  private readonly timer: ReturnType<typeof setInterval>;
  /** Actions run one at a time: a restart never overlaps an install. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: LicenseSessionOptions) {
    this.paths = licenseStore(options.dataDir);
    this.qa = qaControls(options.clock ?? Date.now, options.fetch ?? globalThis.fetch);
    this.timer = setInterval(() => this.push(), options.refreshIntervalMs ?? 1000);
    this.timer.unref?.();
  }

  /** Opens the session; when a license is installed, initializes the client over it. */
  static async open(options: LicenseSessionOptions): Promise<LicenseSession> {
    const session = new LicenseSession(options);
    // A license that no longer loads (no public key to be had) leaves the first-run screen up.
    await session.startClient().catch((error: unknown) => {
      options.logger?.warn?.(`The installed license did not load: ${(error as Error).message}`);
    });
    session.push();
    return session;
  }

  /** The state the renderer shows, computed now. */
  view(): LicenseView {
    return licenseView({
      client: this.client,
      fingerprint: this.fingerprint,
      serverUrl: this.options.serverUrl,
      qa: { enabled: this.options.qa, network: this.qa.network, clockOffsetMs: this.qa.clockOffsetMs },
      now: this.qa.now(),
      seatId: this.seatId,
    });
  }

  /** `listener` hears every view that differs from the last one pushed; returns the unsubscribe function. */
  onView(listener: (view: LicenseView) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  installFile(path: string): Promise<ActionResult> {
    return this.act(async () => this.install(await readChosenFile(path)));
  }

  fetchLicense(input: FetchLicenseInput): Promise<ActionResult> {
    return this.act(async () => {
      const { licenseKey, text } = await downloadLicenseFile(input, this.qa.fetch);
      await this.install(text, licenseKey);
    });
  }

  /** "Deactivate this machine": frees the seat on the server and forgets the marker. */
  deactivate(): Promise<ActionResult> {
    return this.act(async () => {
      const client = this.requireClient();
      if (!(await client.deactivate())) throw this.unreachable(client);
    });
  }

  /** Checks in with the server now (activating first when this machine holds no activation). */
  heartbeat(): Promise<ActionResult> {
    return this.act(async () => {
      const client = this.requireClient();
      if (!(await client.heartbeat())) throw this.unreachable(client);
    });
  }

  /**
   * Frees the seat of a machine the seat-limit screen lists, then this machine activates at once (the SDK's
   * `deactivateMachine`). Only a machine of the list the renderer was shown can be freed.
   */
  freeSeat(seatId: string): Promise<ActionResult> {
    return this.act(async () => {
      const client = this.requireClient();
      const machine = client.statusDetails.machines?.find((m) => this.seatId(m.activationId) === seatId);
      if (!machine) {
        throw new DesktopActionError(
          "seat.unknown",
          "That machine is no longer in the list of seats: check the list again",
        );
      }
      if (!(await client.deactivateMachine(machine.activationId))) throw this.unreachable(client);
      if (client.isUsable) return;
      const { reason, message } = client.statusDetails;
      throw new DesktopActionError(
        "seat.not_taken",
        reason === "seat-limit"
          ? "The seat was freed, but another machine took it first: free another one, or try again later"
          : `The seat was freed, but this machine could not activate yet: ${message}`,
      );
    });
  }

  setNetwork(mode: NetworkMode): Promise<ActionResult> {
    return this.act(async () => {
      this.requireQa();
      if (!NETWORK_MODES.includes(mode)) {
        throw new DesktopActionError("input.invalid", `The network is one of: ${NETWORK_MODES.join(", ")}`);
      }
      this.qa.network = mode;
    });
  }

  /** Moves the client's clock forward by `ms` (hours or days from the QA panel). */
  advanceClock(ms: number): Promise<ActionResult> {
    return this.act(async () => {
      this.requireQa();
      if (!Number.isInteger(ms) || ms <= 0 || ms > MAX_CLOCK_STEP_MS) {
        throw new DesktopActionError(
          "input.invalid",
          "The clock moves forward by a whole number of ms, at most 400 days",
        );
      }
      this.qa.clockOffsetMs += ms;
    });
  }

  resetClock(): Promise<ActionResult> {
    return this.act(async () => {
      this.requireQa();
      this.qa.clockOffsetMs = 0;
    });
  }

  /** Disposes of the client and starts a new one over the same files, as quitting and relaunching would. */
  restart(): Promise<ActionResult> {
    return this.act(async () => {
      this.requireQa();
      this.requireClient();
      await this.stopClient();
      await this.startClient();
    });
  }

  /** Stops pushing and disposes of the client (which deactivates this machine best-effort, spec §4). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.listeners.clear();
    await this.queue.catch(() => undefined);
    await this.stopClient();
  }

  /** Pushes the view when it differs from the last one pushed (the time it was computed at aside). */
  push() {
    const view = this.view();
    const key = JSON.stringify({ ...view, at: 0 });
    if (key === this.lastPushed) return;
    this.lastPushed = key;
    for (const listener of [...this.listeners]) listener(view);
  }

  private act(action: () => Promise<void>): Promise<ActionResult> {
    const run = this.queue.then(() =>
      asResult(action, (error) => this.options.logger?.error?.("A license action failed", error)),
    );
    this.queue = run;
    return run.finally(() => this.push());
  }

  private async install(text: string, expectedKey?: string) {
    requireLicenseShape(text);
    const publicKey = await resolvePublicKey({
      configured: this.options.publicKey,
      publicKeyPath: this.paths.publicKeyPath,
      serverUrl: this.options.serverUrl,
      licenseKey: expectedKey ?? licenseKeyOfFile(text),
      fetch: this.qa.fetch,
    });
    const verified = await checkCandidate(text, publicKey, this.qa.now(), expectedKey);
    const same = this.client?.license?.licenseId === verified.claims.lid;
    await this.stopClient();
    await installLicenseText(this.paths.licensePath, text, same);
    await this.startClient();
  }

  private async startClient() {
    const text = await readFile(this.paths.licensePath, "utf8").catch(() => null);
    if (text === null) return;
    const publicKey = await resolvePublicKey({
      configured: this.options.publicKey,
      publicKeyPath: this.paths.publicKeyPath,
      serverUrl: this.options.serverUrl,
      licenseKey: licenseKeyOfFile(text),
      fetch: this.qa.fetch,
    });
    this.fingerprint ??= await this.machineFingerprint();
    const client = new LicenseClient({
      serverUrl: this.options.serverUrl,
      licenseFilePath: this.paths.licensePath,
      publicKey,
      hwFingerprint: this.fingerprint.value,
      machineName: this.options.machineName,
      clock: this.qa.now,
      fetch: this.qa.fetch,
      activationTimeoutMs: this.options.activationTimeoutMs,
      logger: this.options.logger,
    });
    client.onStatusChange(() => this.push());
    this.client = client;
    await client.initialize();
  }

  private async stopClient() {
    const client = this.client;
    this.client = null;
    await client?.dispose();
  }

  private async machineFingerprint(): Promise<FingerprintView> {
    if (this.options.hwFingerprint) {
      return { value: this.options.hwFingerprint, derivedFrom: "configured", sources: [] };
    }
    const [value, sources] = await Promise.all([
      defaultFingerprint({ installIdFile: installIdFile(this.paths.licensePath) }),
      fingerprintSources(),
    ]);
    return {
      value,
      derivedFrom: "machine",
      sources: Object.entries(sources).map(([name, found]) => ({ name, value: found })),
    };
  }

  private requireClient(): LicenseClient {
    if (!this.client) throw new DesktopActionError("license.not_installed", "No license is installed yet");
    return this.client;
  }

  /** Whether the QA levers work (`--qa` or `LICENSING_QA=1`). */
  get qaEnabled(): boolean {
    return this.options.qa;
  }

  private requireQa() {
    if (!this.options.qa) throw new DesktopActionError(QA_DISABLED.code, QA_DISABLED.message);
  }

  private unreachable(client: LicenseClient) {
    const error = client.statusDetails.lastError;
    return new DesktopActionError(
      "server.unreachable",
      error
        ? `The licensing server did not accept it: ${error.message} (${error.code})`
        : "The licensing server could not be reached",
    );
  }
}
