import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cachePaths,
  fileStorage,
  fingerprintComponents,
  fingerprintOf,
  LicenseClientCore,
  LicensingApiError,
  OfflineActivationError,
  type ClientStatusDetails,
  type Seat,
} from "@licensing/client";
import type { LicenseIssueResponse } from "@licensing/contracts";
import type { Backend } from "../backend/backend.ts";
import { SimulatorError } from "../backend/panel-api.ts";
import { forgedRevocationAnswer, forgedRevocationList, type ForgeryTarget } from "../runtime/forgery.ts";
import { Machine } from "../runtime/machine.ts";
import type { NetworkCounts } from "../runtime/network.ts";
import { VirtualScheduler } from "../runtime/virtual-scheduler.ts";
import { formatDuration } from "../scenario/duration.ts";
import type { Scenario, ScenarioStep } from "../scenario/parse.ts";
import { ANCHORS, stepSpec, type SignedFile, type Step } from "../scenario/steps.ts";
import { check } from "./expectations.ts";
import { Install } from "./install.ts";
import type { Outcome, ScenarioResult, TimelineEvent } from "./timeline.ts";

const ACTIVATION_WAIT_MS = 60_000;
/** What a step can do to a sleeping computer: wake it, read it, change its network or clock, or kill its program. */
const ASLEEP_ALLOWED = new Set<Step["kind"]>([
  "wake",
  "sleep",
  "crash",
  "expect",
  "online",
  "offline",
  "server-errors",
  "forge-revocation",
  "set-clock",
]);
// A runaway loop (a timer re-arming itself with no delay) ends the scenario instead of hanging it.
const MAX_STOPS_PER_ADVANCE = 1_000_000;
// What the SDK uses for a new install; the scenario's `fingerprintVersion` overrides it.
const NEW_INSTALL_FINGERPRINT_VERSION = 2;

interface StepOutcome {
  outcome: Outcome;
  message: string | null;
}

/**
 * One scenario against one server: the license issued and downloaded into a temporary folder, then the
 * steps in order, each recorded with the status the client reports afterwards. Time is virtual: each
 * computer's client reads `trueNow() + clockOffset`; against the in-process server, `trueNow()` is the
 * server's own clock. The main program runs on the scenario's `machine`; `on <machine>` steps run a program
 * on other computers, each with its own folder, network and clock, all on the one scheduler.
 */
export class ScenarioRun {
  private readonly scheduler = new VirtualScheduler(() => this.elapsed);
  private readonly events: TimelineEvent[] = [];
  /** Scenario time since the start (what timers measure). */
  private elapsed = 0;
  /** Every machine a step named, by name: hardware that steps change and programs run on. */
  private readonly machines = new Map<string, Machine>();
  private main: Install | null = null;
  /** The programs on other computers, by the machine they run on. */
  private readonly others = new Map<string, Install>();
  private license!: LicenseIssueResponse;
  /**
   * The template's root key, which every program is built with: not the issue answer's `publicKey`, which
   * after a rotation is the Active key and would let the program skip the key chain.
   */
  private rootKey!: { id: string; publicKeyHex: string };
  private inAdvance = false;
  private readonly startedAt: number;

  constructor(
    private readonly scenario: Scenario,
    private readonly backend: Backend,
  ) {
    this.startedAt = backend.serverNow();
  }

  private trueNow = () => this.backend.serverNow();
  private clientNow = (install: Install) => this.trueNow() + install.clockOffset;

  private installs(): Install[] {
    return [...(this.main ? [this.main] : []), ...this.others.values()];
  }

  /** The computers that are not asleep: a sleeping one's program notices nothing until it wakes. */
  private awakeInstalls(): Install[] {
    return this.installs().filter((install) => !this.scheduler.isAsleep(install));
  }

  private machine(name: string): Machine {
    let machine = this.machines.get(name);
    if (!machine) this.machines.set(name, (machine = new Machine(name)));
    return machine;
  }

  /** A machine's fingerprint now, as its SDK computes it. */
  private fingerprintOf(name: string): string {
    return this.machine(name).fingerprint(
      this.scenario.fingerprintVersion ?? NEW_INSTALL_FINGERPRINT_VERSION,
    );
  }

  async run(): Promise<ScenarioResult> {
    const realStart = performance.now();
    let error: string | null = null;
    try {
      await this.setUp();
      for (const step of this.scenario.steps) {
        const result = await this.runStep(step);
        if (result.outcome === "error" || result.outcome === "refused") {
          error = `line ${step.line}: ${step.text}: ${result.message}`;
          break;
        }
      }
    } catch (caught) {
      error = (caught as Error).message;
      this.record("setup", "set-up", null, { outcome: "error", message: error });
    } finally {
      await this.tearDown();
    }
    const failures = this.events.filter((e) => e.outcome === "failed").length;
    return {
      file: this.scenario.file,
      name: this.scenario.name,
      description: this.scenario.description ?? null,
      mode: this.backend.kind,
      ok: failures === 0 && error === null,
      startedAt: this.startedAt,
      endedAt: this.trueNow(),
      failures,
      error,
      events: this.events,
      realMs: Math.round(performance.now() - realStart),
    };
  }

  private async setUp() {
    const terms = this.scenario.license;
    const machine = this.machine(this.scenario.machine);
    this.rootKey = await this.backend.keys.root();
    this.license = await this.backend.licenses.issue(terms, this.fingerprintOf(machine.name), this.trueNow());
    this.main = await this.newInstall(null, machine);
    const binding = terms.binding === "fixed" ? `fixed to ${machine.name}` : terms.binding;
    const revocation = terms.revocation === undefined ? "" : `, ${terms.revocation} revocation`;
    this.record("setup", `issue license ${this.license.licenseKey}`, null, {
      outcome: "ok",
      message: `offline ${terms.offlineDays}d, valid ${formatDuration(terms.validFor)}, binding ${binding}${terms.trial ? ", trial" : ""}${revocation}; downloaded`,
    });
  }

  /** A program folder on a computer, holding the license file as the panel gives it now. */
  private async newInstall(name: string | null, machine: Machine): Promise<Install> {
    const folder = await mkdtemp(join(tmpdir(), "licensing-sim-"));
    const install = new Install(name, machine, folder, join(folder, `${this.license.licenseKey}.lic`));
    await writeFile(install.licensePath, await this.backend.licenses.download(this.license.id));
    return install;
  }

  /** The program on `name`: the main one when it runs there, else that computer's (made on first use). */
  private async installOn(name: string): Promise<Install> {
    if (this.main?.machine.name === name) return this.main;
    let install = this.others.get(name);
    if (!install) this.others.set(name, (install = await this.newInstall(name, this.machine(name))));
    return install;
  }

  private async tearDown() {
    for (const install of this.installs()) {
      try {
        await install.client?.dispose();
      } catch {
        // best effort: the run is over
      }
      install.client = null;
    }
    this.scheduler.clear();
    for (const install of this.installs()) await rm(install.folder, { recursive: true, force: true });
  }

  private async runStep({ step, text, line }: ScenarioStep): Promise<StepOutcome> {
    this.takeCounts();
    let result: StepOutcome;
    let install = this.main!;
    const refusal = this.refusal(step);
    if (refusal) {
      result = { outcome: "refused", message: refusal };
    } else {
      try {
        if (step.kind === "on") {
          install = await this.installOn(step.machine);
          this.refuseAsleep(step.step, install);
          result = await this.execute(step.step, install);
        } else {
          this.refuseAsleep(step, install);
          result = await this.execute(step, install);
        }
      } catch (error) {
        const message =
          error instanceof SimulatorError || error instanceof LicensingApiError
            ? `${error.code}: ${error.message}`
            : String((error as Error).message);
        result = { outcome: "error", message };
      }
    }
    this.record("step", text, line, result, install);
    return result;
  }

  /** A sleeping computer runs nothing: its program's steps wait for `wake` (its network and clock may change). */
  private refuseAsleep(step: Step, install: Install) {
    if (!stepSpec(step.kind).perMachine || !this.scheduler.isAsleep(install)) return;
    if (ASLEEP_ALLOWED.has(step.kind)) return;
    throw new SimulatorError(
      "simulator.step",
      `${install.machine.name} is asleep: wake it first (${step.kind} needs it running)`,
    );
  }

  /** Why a step cannot run against a deployed server; null when it can. */
  private refusal(step: Step): string | null {
    if (this.backend.kind === "local") return null;
    const kind = step.kind === "on" ? step.step.kind : step.kind;
    const rule = stepSpec(kind).remote;
    if (rule === "refused")
      return `refused against --server-url: ${kind} needs the in-process server (run without --server-url)`;
    // A sleeping computer asks the server nothing, so it does not hold time still.
    if (rule === "client-offline" && this.awakeInstalls().some((i) => i.client && i.network.reachable))
      return "refused against --server-url: while the client is online, time can only pass if the server's clock moves too; only this machine's clock moves here. Go offline (or stop the application) first, or run without --server-url";
    return null;
  }

  private async execute(step: Step, install: Install): Promise<StepOutcome> {
    const ok = (message: string | null = null): StepOutcome => ({ outcome: "ok", message });
    const atNextStart = install.client ? "; seen at the next start" : "";
    switch (step.kind) {
      case "start":
        return this.start(install);
      case "stop":
        await this.stop(install);
        return ok();
      case "restart":
        await this.stop(install);
        return this.start(install);
      case "online":
        install.network.mode = { kind: "online" };
        return ok();
      case "offline":
        install.network.mode = { kind: "offline" };
        return ok();
      case "server-errors":
        install.network.mode = {
          kind: "server-errors",
          status: step.status,
          retryAfterMs: step.retryAfterMs,
        };
        return ok();
      case "advance":
        await this.advance(step.by);
        return ok();
      case "advance-to": {
        const client = this.running(install);
        const details = client.statusDetails;
        const target = details[ANCHORS[step.anchor] satisfies keyof ClientStatusDetails];
        if (target === null)
          throw new SimulatorError("simulator.step", `the client has no ${step.anchor} now`);
        // Whole milliseconds, as the clocks move: a heartbeat's time has the fractions of its jitter.
        const by = Math.ceil(target + step.offset - details.at);
        if (by < 0)
          throw new SimulatorError("simulator.step", `${step.anchor} was ${formatDuration(-by)} ago`);
        await this.advance(by);
        return ok(`advanced ${formatDuration(by)}`);
      }
      case "set-clock":
        install.clockOffset =
          step.to === "reset" ? 0 : "offset" in step.to ? step.to.offset : step.to.at - this.trueNow();
        return ok(
          install.clockOffset === 0 ? "clock correct" : `clock off by ${formatDuration(install.clockOffset)}`,
        );
      case "use-machine":
        if (this.others.has(step.machine))
          throw new SimulatorError(
            "simulator.step",
            `${step.machine} runs a program of its own (on ${step.machine} …): one program per machine`,
          );
        install.machine = this.machine(step.machine);
        return ok(install.client ? "used from the next start" : null);
      case "heartbeat":
        return ok(`heartbeat() → ${await this.running(install).heartbeat()}`);
      case "revoke":
        await this.backend.licenses.revoke(this.license.id, step.reason);
        return ok();
      case "suspend":
        await this.backend.licenses.suspend(this.license.id);
        return ok();
      case "resume":
        await this.backend.licenses.resume(this.license.id);
        return ok();
      case "rebind":
        await this.backend.licenses.rebind(this.license.id, {
          fingerprint: step.machine === null ? null : this.fingerprintOf(step.machine),
          binding: step.binding,
        });
        return ok();
      case "transfer":
        await this.backend.licenses.transfer(this.license.id);
        return ok();
      case "download-license":
        await writeFile(install.licensePath, await this.backend.licenses.download(this.license.id));
        return ok(install.client ? "read at the next start" : null);
      case "delete-license":
        await rm(install.licensePath, { force: true });
        return ok();
      case "corrupt-license":
        return ok(await this.corruptLicense(install));
      case "delete-marker":
        await rm(cachePaths(install.licensePath).marker, { force: true });
        return ok();
      case "corrupt-marker":
        return ok(await this.corruptMarker(install));
      case "sweep":
        await this.backend.runJobs(true);
        return ok();
      case "change-component":
      case "add-component": {
        const before = install.machine.value(step.component) ?? "none";
        const after =
          step.kind === "change-component"
            ? install.machine.change(step.component, step.value)
            : install.machine.add(step.component, step.value);
        return ok(`${step.component} ${before} → ${after}${atNextStart}`);
      }
      case "remove-component": {
        const before = install.machine.value(step.component);
        install.machine.remove(step.component);
        return ok(`${step.component} ${before} → none${atNextStart}`);
      }
      case "upgrade-os": {
        const before = install.machine.sources.osDescription;
        return ok(`${before} → ${install.machine.upgradeOs(step.major)}${atNextStart}`);
      }
      case "reinstall":
        return ok(await this.reinstall(install));
      case "deactivate-machine":
        return ok(await this.deactivateMachine(install, step.machine));
      case "reset-activation":
        return ok(await this.resetActivation(step.machine ?? install.machine.name));
      case "reset-device-budget":
        await this.backend.licenses.resetDeviceBudget(this.license.id);
        return ok();
      case "offline-request": {
        const request = await this.running(install).createOfflineActivationRequest();
        install.offline = { ...install.offline, request, requestLength: request.length };
        return ok(`a request block of ${request.length} characters`);
      }
      case "offline-respond":
        return ok(await this.offlineRespond(install, step.validDays));
      case "offline-apply":
        return ok(await this.offlineApply(install, step.from));
      case "offline-deactivate": {
        const receipt = await this.running(install).deactivateOffline();
        install.offline = { ...install.offline, receipt };
        return ok(`a receipt block of ${receipt.length} characters`);
      }
      case "offline-hand-in-receipt": {
        const receipt = this.offlineOf(install, step.from, "receipt", "offline-deactivate");
        const freed = await this.backend.licenses.offlineDeactivate(receipt);
        return ok(`activation ${freed.activationId} deactivated`);
      }
      case "forge-revocation":
        install.network.mode = {
          kind: "forged-revocation",
          body: forgedRevocationAnswer(step.forgery, this.forgeryTarget()),
        };
        return ok();
      case "apply-revocation-list":
        return ok(await this.applyRevocationList(install, step.forged));
      case "rotate-key": {
        const key = await this.backend.keys.rotate();
        return ok(`key ${key} is Active, key ${key - 1} Inactive`);
      }
      case "retire-key":
        return ok(`key ${await this.backend.keys.retire(step.key)} retired`);
      case "crash":
        return ok(this.crash(install));
      case "sleep":
        if (this.scheduler.isAsleep(install))
          throw new SimulatorError("simulator.step", `${install.machine.name} is asleep already`);
        this.scheduler.sleep(install);
        return ok(install.client ? "its program's timers stop" : "no program runs");
      case "wake": {
        if (!this.scheduler.isAsleep(install))
          throw new SimulatorError("simulator.step", `${install.machine.name} is not asleep`);
        const slept = this.scheduler.wake(install);
        return ok(`slept ${formatDuration(slept)}; its timers run again, each ${formatDuration(slept)} late`);
      }
      case "force-release":
        return ok(await this.forceRelease(step.machine ?? install.machine.name));
      case "borrow": {
        const until = this.clientNow(install) + step.for;
        const seat = await this.running(install).borrow(until);
        return ok(`borrow(${new Date(until).toISOString()}) → ${describeSeat(seat)}`);
      }
      case "return-borrowed": {
        const seat = await this.running(install).returnBorrowed();
        return ok(`returnBorrowed() → ${describeSeat(seat)}`);
      }
      case "on":
        throw new SimulatorError("simulator.step", "on cannot be nested");
      case "expect": {
        const checked = await check(step.target, {
          client: install.client,
          lastInitialize: install.lastInitialize,
          lastActivation: install.network.lastActivation,
          serverLicense: () => this.backend.licenses.get(this.license.id),
          serverActivations: () => this.backend.licenses.activations(this.license.id),
          serverLeases: () => this.backend.licenses.leases(this.license.id),
          fingerprintOf: (name) => this.fingerprintOf(name),
          requestsSinceLastCheck: () => {
            const count = install.network.attempts - install.requestsChecked;
            install.requestsChecked = install.network.attempts;
            return count;
          },
          offline: install.offline,
          signerOf: (file) => this.signerOf(install, file),
        });
        return { outcome: checked.ok ? "ok" : "failed", message: checked.message };
      }
    }
  }

  private running(install: Install): LicenseClientCore {
    if (!install.client)
      throw new SimulatorError("simulator.step", "no application is running: start it first");
    return install.client;
  }

  /**
   * A new client on the program's files, as the Node `LicenseClient` makes it (file storage, the default
   * fingerprint and components), but reading the simulated machine's sources instead of this computer's:
   * the SDK's `fingerprintOf` (in the version it chooses for the install) and `fingerprintComponents`.
   */
  private async start(install: Install): Promise<StepOutcome> {
    if (install.client) throw new SimulatorError("simulator.step", "the application is already running");
    // The SDK reads its machine once per process: a change to the hardware is seen by the next start.
    const sources = install.machine.sources;
    const version = this.scenario.fingerprintVersion;
    const client = new LicenseClientCore({
      serverUrl: this.backend.url,
      publicKey: this.rootKey.publicKeyHex,
      storage: fileStorage(install.licensePath),
      hwFingerprint: async (fingerprintVersion) => fingerprintOf(sources, fingerprintVersion)!,
      ...(version === undefined ? {} : { fingerprintVersion: version }),
      components: fingerprintComponents(sources),
      machineName: sources.machineName,
      fetch: install.network.fetch,
      clock: () => this.clientNow(install),
      scheduler: this.scheduler.forOwner(install),
      deactivateOnDispose: this.scenario.deactivateOnDispose,
      // Offline and injected errors fail at once; a slow answer (a loaded CI machine) is waited for, so a
      // step's outcome never depends on real time. The SDK's own default is 5 s.
      activationTimeoutMs: ACTIVATION_WAIT_MS,
    });
    client.onStatusChange((status, previous) => {
      if (!this.inAdvance) return;
      const { reason } = client.statusDetails;
      const who = install.name === null ? "" : `${install.name}: `;
      this.record(
        "transition",
        `${who}${previous} → ${status}`,
        null,
        { outcome: "ok", message: null },
        install,
        { status, reason },
      );
    });
    // A floating seat taken, borrowed or lost: a row at its time (not each renewal, which moves only its end).
    let seatState: Seat["state"] = "none";
    client.onSeatChange((seat) => {
      if (seat.state === seatState) return;
      seatState = seat.state;
      if (!this.inAdvance) return;
      const who = install.name === null ? "" : `${install.name}: `;
      const { status, reason } = client.statusDetails;
      this.record(
        "transition",
        `${who}seat ${describeSeat(seat)}`,
        null,
        { outcome: "ok", message: null },
        install,
        { status, reason },
      );
    });
    install.client = client;
    install.lastInitialize = await client.initialize();
    return { outcome: "ok", message: `initialize() → ${install.lastInitialize}` };
  }

  private async stop(install: Install) {
    const client = install.client;
    install.client = null;
    await client?.dispose();
  }

  /** The program dies: no dispose(), so no deactivation and no release; its timers are gone with it. */
  private crash(install: Install): string {
    const client = this.running(install);
    install.client = null;
    this.scheduler.drop(install);
    const { status } = client.statusDetails;
    return `killed while ${status}: nothing released, nothing deactivated`;
  }

  /** An Admin force-releases the lease the machine holds, found in the panel's list of live leases by host name. */
  private async forceRelease(name: string): Promise<string> {
    const hostName = this.machine(name).sources.machineName;
    const leases = await this.backend.licenses.leases(this.license.id);
    const held = leases.filter((lease) => lease.machineName === hostName);
    if (held.length !== 1)
      throw new SimulatorError(
        "simulator.step",
        `the panel lists ${held.length} live leases of ${name} (${leases.length} in all): nothing to release`,
      );
    await this.backend.licenses.forceRelease(held[0]!.leaseId);
    return `lease ${held[0]!.leaseId} released`;
  }

  private async reinstall(install: Install): Promise<string> {
    if (install.client)
      throw new SimulatorError(
        "simulator.step",
        "the application is running: stop it first (a reinstall replaces the system under it)",
      );
    const id = install.machine.reinstall();
    const { marker, state } = cachePaths(install.licensePath);
    await rm(marker, { force: true });
    await rm(state, { force: true });
    return `machine-id → ${id}; the program's cache is gone, its license file kept`;
  }

  /** What an app does after a seat-limit refusal: frees the named machine's seat through the SDK. */
  private async deactivateMachine(install: Install, name: string): Promise<string> {
    const client = this.running(install);
    const hostName = this.machine(name).sources.machineName;
    const listed = await client.listMachines();
    const found = listed.filter((m) => m.machineName === hostName);
    if (found.length !== 1)
      throw new SimulatorError(
        "simulator.step",
        `listMachines() shows ${found.length} machines named ${hostName ?? "(none)"}: ${listed.map((m) => m.machineName ?? "(unnamed)").join(", ") || "none at all"}`,
      );
    return `deactivateMachine(${found[0]!.activationId}) → ${await client.deactivateMachine(found[0]!.activationId)}`;
  }

  /** A block of this machine's air-gapped exchange, or of the machine named by `from <machine>`. */
  private offlineOf(
    install: Install,
    from: string | null,
    block: "request" | "response" | "receipt",
    madeBy: string,
  ): string {
    const source = from === null ? install : this.installs().find((i) => i.machine.name === from);
    const text = source?.offline[block] ?? null;
    if (text === null)
      throw new SimulatorError(
        "simulator.step",
        `${from ?? "this machine"} has no ${block}: ${from === null ? "" : `on ${from} `}${madeBy} first`,
      );
    return text;
  }

  /** An Admin answers this machine's pending request in the panel; the response goes back with the person. */
  private async offlineRespond(install: Install, validDays: number | null): Promise<string> {
    const request = this.offlineOf(install, null, "request", "offline-request");
    const { activationId, response } = await this.backend.licenses.offlineActivate(
      this.license.id,
      request,
      validDays,
    );
    install.offline = { ...install.offline, response, activationId };
    return `activation ${activationId}${validDays === null ? ", until the license expires" : `, for ${validDays} days`}`;
  }

  /** The program applies a response; its refusal (with the reason) is the step's result, not an error. */
  private async offlineApply(install: Install, from: string | null): Promise<string> {
    const client = this.running(install);
    const response = this.offlineOf(install, from, "response", "offline-respond");
    try {
      const details = await client.applyOfflineActivation(response);
      install.offline = { ...install.offline, refused: null };
      return `applied: ${details.status} until ${new Date(details.certificateExpiresAt!).toISOString()}`;
    } catch (error) {
      if (!(error instanceof OfflineActivationError)) throw error;
      install.offline = { ...install.offline, refused: error.reason };
      return `refused (${error.reason}): ${error.message}`;
    }
  }

  private forgeryTarget(): ForgeryTarget {
    return {
      licenseId: this.license.id,
      templateId: this.backend.licenses.templateId,
      rootKeyId: this.rootKey.id,
      now: this.trueNow(),
    };
  }

  /**
   * The vendor downloads the template's revocation list (every page since the license was issued), or an
   * attacker forges one; a person carries it to the program, which applies it without the network.
   */
  private async applyRevocationList(install: Install, forged: boolean): Promise<string> {
    const client = this.running(install);
    let lists: string[];
    if (forged) lists = [forgedRevocationList(this.forgeryTarget())];
    else {
      const { issuedAt } = await this.backend.licenses.get(this.license.id);
      lists = await this.backend.licenses.revocationLists(String(issuedAt));
    }
    let named = false;
    for (const list of lists) if (await client.applyRevocationList(list)) named = true;
    const pages = lists.length === 1 ? "" : ` (${lists.length} pages)`;
    return `${forged ? "a forged list" : "the template's list"}${pages}: applyRevocationList() → ${named}`;
  }

  /** The key that signed the license file's token, or the cached marker (or offline certificate), on disk. */
  private async signerOf(
    install: Install,
    file: SignedFile,
  ): Promise<{ key: number | null; kid: string } | null> {
    const path = file === "license" ? install.licensePath : cachePaths(install.licensePath).marker;
    const text = await readFile(path, "utf8").catch(() => null);
    if (text === null) return null;
    const kid = signingKeyId(file, text.trim()) ?? this.rootKey.id;
    return { key: await this.backend.keys.numberOf(kid), kid };
  }

  /**
   * An Admin's reset of a machine's activation: the one its running program holds, else the live one the
   * panel lists under its host name.
   */
  private async resetActivation(name: string): Promise<string> {
    const machine = this.machine(name);
    let id = this.installs().find((i) => i.machine === machine)?.client?.statusDetails.activationId ?? null;
    if (id === null) {
      const live = (await this.backend.licenses.activations(this.license.id)).filter(
        (a) => a.status === "active" && a.machineName === machine.sources.machineName,
      );
      if (live.length !== 1)
        throw new SimulatorError(
          "simulator.step",
          `the panel lists ${live.length} live activations of ${name}: nothing to reset`,
        );
      id = live[0]!.id;
    }
    await this.backend.licenses.resetActivation(this.license.id, id);
    return `activation ${id} deactivated`;
  }

  /**
   * Moves time forward by `ms`, stopping at every timer the clients set (heartbeats, retries) and every
   * status transition they predict, so each happens at its own time; the in-process server's jobs run on
   * their virtual intervals on the way, and all of them at the end.
   */
  private async advance(ms: number) {
    const target = this.elapsed + Math.ceil(ms);
    this.inAdvance = true;
    try {
      for (let stops = 0; ; stops++) {
        if (stops > MAX_STOPS_PER_ADVANCE) throw new SimulatorError("simulator.loop", "time stopped moving");
        let stop = target;
        const timer = this.scheduler.nextNetworkDue();
        if (timer !== null) stop = Math.min(stop, Math.max(timer, this.elapsed));
        const transition = this.nextTransition();
        if (transition !== null && transition > this.elapsed) stop = Math.min(stop, transition);
        this.moveTime(stop - this.elapsed);
        if (this.backend.kind === "local") await this.backend.runJobs(this.elapsed >= target);
        await this.scheduler.fireDue();
        // The clients notice (and report) a transition where time stops.
        for (const install of this.awakeInstalls()) install.client?.refreshStatus();
        if (this.elapsed >= target) break;
      }
    } finally {
      this.inAdvance = false;
    }
  }

  /** When (in scenario time) a client's status will next change by itself, if one's will. */
  private nextTransition(): number | null {
    let next: number | null = null;
    for (const { client } of this.awakeInstalls()) {
      if (!client) continue;
      const { nextTransitionAt, at } = client.statusDetails;
      if (nextTransitionAt === null) continue;
      const when = this.elapsed + (nextTransitionAt - at);
      if (next === null || when < next) next = when;
    }
    return next;
  }

  private moveTime(ms: number) {
    ms = Math.round(ms);
    if (ms <= 0) return;
    this.elapsed += ms;
    if (this.backend.kind === "local") this.backend.advanceServer(ms);
    else for (const install of this.installs()) install.clockOffset += ms;
  }

  private takeCounts(): NetworkCounts {
    const total: NetworkCounts = { ok: 0, refused: 0, failed: 0 };
    for (const install of this.installs()) {
      const counts = install.network.takeCounts();
      total.ok += counts.ok;
      total.refused += counts.refused;
      total.failed += counts.failed;
    }
    return total;
  }

  private async readCached(path: string, what: string): Promise<string> {
    try {
      return (await readFile(path, "utf8")).trim();
    } catch {
      throw new SimulatorError("simulator.step", `there is no ${what} to corrupt`);
    }
  }

  private async corruptMarker(install: Install): Promise<string> {
    const path = cachePaths(install.licensePath).marker;
    await writeFile(path, damageSignature(await this.readCached(path, "cached marker")));
    return "signature damaged; read at the next start";
  }

  private async corruptLicense(install: Install): Promise<string> {
    const text = await this.readCached(install.licensePath, "license file");
    let damaged: string;
    try {
      const envelope = JSON.parse(text) as { token: string };
      damaged = JSON.stringify({ ...envelope, token: damageSignature(envelope.token) });
    } catch {
      damaged = damageSignature(text); // a bare token
    }
    await writeFile(install.licensePath, damaged);
    return "token signature damaged; read at the next start";
  }

  private record(
    kind: TimelineEvent["kind"],
    step: string,
    line: number | null,
    { outcome, message }: StepOutcome,
    install: Install | null = this.main,
    status?: Pick<TimelineEvent, "status" | "reason">,
  ) {
    let details: Pick<TimelineEvent, "status" | "reason"> | null = status ?? null;
    if (!status) {
      // A step ends where time stops: the clients observe their clocks there, as their watches would.
      for (const other of this.installs()) {
        const asleep = this.scheduler.isAsleep(other);
        const refreshed = (asleep ? other.client?.statusDetails : other.client?.refreshStatus()) ?? null;
        if (other === install) details = refreshed;
      }
    }
    let requests = null;
    if (kind !== "transition") {
      const counts = this.takeCounts();
      if (counts.ok + counts.refused + counts.failed > 0) requests = counts;
    }
    this.events.push({
      kind,
      at: this.trueNow(),
      clockAt: install ? this.clientNow(install) : this.trueNow(),
      elapsed: this.elapsed,
      line,
      machine: install?.name ?? null,
      step,
      status: details?.status ?? null,
      reason: details?.reason ?? null,
      outcome,
      message,
      requests,
    });
  }
}

/**
 * Flips the first character of the last dot-separated segment (the signature of a marker or a JWS): the
 * text stays well-formed, the signature no longer verifies.
 */
function damageSignature(text: string): string {
  const at = text.lastIndexOf(".") + 1;
  return text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
}

const jsonSegment = (segment: string | undefined): Record<string, unknown> => {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment ?? "", "base64url").toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * The `kid` of what a file holds: a license file's token (a JWS: its header), a marker (its payload's last
 * member, absent when the root signed it) or an offline certificate (an armored JWS). Null when it names none.
 */
function signingKeyId(file: SignedFile, text: string): string | null {
  let jws: string | null = null;
  if (file === "license") {
    try {
      jws = (JSON.parse(text) as { token: string }).token;
    } catch {
      jws = text; // a bare token
    }
  } else if (text.startsWith("-----BEGIN")) {
    jws = text.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
  }
  const kid = jws === null ? jsonSegment(text.split(".")[0]).kid : jsonSegment(jws.split(".")[0]).kid;
  return typeof kid === "string" ? kid : null;
}

/** A floating seat as the SDK reports it (`onSeatChange`, `borrow`), in a few words. */
function describeSeat(seat: Seat): string {
  if (seat.state === "none")
    return seat.holders === null
      ? "none"
      : `none: ${seat.holders.length} held${seat.retryAt === null ? "" : `, retry at ${new Date(seat.retryAt).toISOString()}`}`;
  return `${seat.state} until ${new Date(seat.expiresAt!).toISOString()}`;
}

/** Runs one scenario; the backend is the caller's (opened and closed around it). */
export function runScenario(scenario: Scenario, backend: Backend): Promise<ScenarioResult> {
  return new ScenarioRun(scenario, backend).run();
}
