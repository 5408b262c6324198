import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cachePaths, LicenseClient } from "@licensing/client";
import type { LicenseIssueResponse } from "@licensing/contracts";
import type { Backend } from "../backend/backend.ts";
import { SimulatorError } from "../backend/panel-api.ts";
import { formatDuration } from "../scenario/duration.ts";
import type { Scenario, ScenarioStep } from "../scenario/parse.ts";
import { ANCHORS, stepSpec, type Step } from "../scenario/steps.ts";
import { SimulatedNetwork } from "../runtime/network.ts";
import { VirtualScheduler } from "../runtime/virtual-scheduler.ts";
import { check } from "./expectations.ts";
import type { Outcome, ScenarioResult, TimelineEvent } from "./timeline.ts";

const ACTIVATION_WAIT_MS = 60_000;
// A runaway loop (a timer re-arming itself with no delay) ends the scenario instead of hanging it.
const MAX_STOPS_PER_ADVANCE = 1_000_000;

interface StepOutcome {
  outcome: Outcome;
  message: string | null;
}

/**
 * One scenario against one server: the license issued and downloaded into a temporary folder, then the
 * steps in order, each recorded with the status the client reports afterwards. Time is virtual: the client
 * reads `trueNow() + clockOffset`; against the in-process server, `trueNow()` is the server's own clock.
 */
export class ScenarioRun {
  private readonly network = new SimulatedNetwork();
  private readonly scheduler = new VirtualScheduler(() => this.elapsed);
  private readonly events: TimelineEvent[] = [];
  /** Scenario time since the start (what timers measure). */
  private elapsed = 0;
  /** This machine's clock minus the true time. */
  private clockOffset = 0;
  private client: LicenseClient | null = null;
  private lastInitialize: boolean | null = null;
  private machine: string;
  private license!: LicenseIssueResponse;
  private folder = "";
  private licensePath = "";
  private inAdvance = false;
  private readonly startedAt: number;

  constructor(
    private readonly scenario: Scenario,
    private readonly backend: Backend,
  ) {
    this.machine = scenario.machine;
    this.startedAt = backend.serverNow();
  }

  private trueNow = () => this.backend.serverNow();
  private clientNow = () => this.trueNow() + this.clockOffset;

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
    this.license = await this.backend.licenses.issue(terms, this.machine, this.trueNow());
    this.folder = await mkdtemp(join(tmpdir(), "licensing-sim-"));
    this.licensePath = join(this.folder, `${this.license.licenseKey}.lic`);
    await writeFile(this.licensePath, await this.backend.licenses.download(this.license.id));
    const binding = terms.binding === "fixed" ? `fixed to ${this.machine}` : terms.binding;
    this.record("setup", `issue license ${this.license.licenseKey}`, null, {
      outcome: "ok",
      message: `offline ${terms.offlineDays}d, valid ${formatDuration(terms.validFor)}, binding ${binding}${terms.trial ? ", trial" : ""}; downloaded`,
    });
  }

  private async tearDown() {
    try {
      await this.client?.dispose();
    } catch {
      // best effort: the run is over
    }
    this.client = null;
    this.scheduler.clear();
    if (this.folder) await rm(this.folder, { recursive: true, force: true });
  }

  private async runStep({ step, text, line }: ScenarioStep): Promise<StepOutcome> {
    this.network.takeCounts();
    let result: StepOutcome;
    const refusal = this.refusal(step);
    if (refusal) {
      result = { outcome: "refused", message: refusal };
    } else {
      try {
        result = await this.execute(step);
      } catch (error) {
        const message =
          error instanceof SimulatorError
            ? `${error.code}: ${error.message}`
            : String((error as Error).message);
        result = { outcome: "error", message };
      }
    }
    this.record("step", text, line, result);
    return result;
  }

  /** Why a step cannot run against a deployed server; null when it can. */
  private refusal(step: Step): string | null {
    if (this.backend.kind === "local") return null;
    const rule = stepSpec(step.kind).remote;
    if (rule === "refused")
      return `refused against --server-url: ${step.kind} needs the in-process server (run without --server-url)`;
    if (rule === "client-offline" && this.client && this.network.reachable)
      return "refused against --server-url: while the client is online, time can only pass if the server's clock moves too; only this machine's clock moves here. Go offline (or stop the application) first, or run without --server-url";
    return null;
  }

  private async execute(step: Step): Promise<StepOutcome> {
    const ok = (message: string | null = null): StepOutcome => ({ outcome: "ok", message });
    switch (step.kind) {
      case "start":
        return this.start();
      case "stop":
        await this.stop();
        return ok();
      case "restart":
        await this.stop();
        return this.start();
      case "online":
        this.network.mode = { kind: "online" };
        return ok();
      case "offline":
        this.network.mode = { kind: "offline" };
        return ok();
      case "server-errors":
        this.network.mode = { kind: "server-errors", status: step.status, retryAfterMs: step.retryAfterMs };
        return ok();
      case "advance":
        await this.advance(step.by);
        return ok();
      case "advance-to": {
        const client = this.running();
        const details = client.statusDetails;
        const target = details[ANCHORS[step.anchor]];
        if (target === null)
          throw new SimulatorError("simulator.step", `the client has no ${step.anchor} now`);
        const by = target + step.offset - details.at;
        if (by < 0)
          throw new SimulatorError("simulator.step", `${step.anchor} was ${formatDuration(-by)} ago`);
        await this.advance(by);
        return ok(`advanced ${formatDuration(by)}`);
      }
      case "set-clock":
        this.clockOffset =
          step.to === "reset" ? 0 : "offset" in step.to ? step.to.offset : step.to.at - this.trueNow();
        return ok(
          this.clockOffset === 0 ? "clock correct" : `clock off by ${formatDuration(this.clockOffset)}`,
        );
      case "use-machine":
        this.machine = step.fingerprint;
        return ok(this.client ? "used from the next start" : null);
      case "heartbeat":
        return ok(`heartbeat() → ${await this.running().heartbeat()}`);
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
        await this.backend.licenses.rebind(this.license.id, step);
        return ok();
      case "transfer":
        await this.backend.licenses.transfer(this.license.id);
        return ok();
      case "download-license":
        await writeFile(this.licensePath, await this.backend.licenses.download(this.license.id));
        return ok(this.client ? "read at the next start" : null);
      case "delete-license":
        await rm(this.licensePath, { force: true });
        return ok();
      case "corrupt-license":
        return ok(await this.corruptLicense());
      case "delete-marker":
        await rm(cachePaths(this.licensePath).marker, { force: true });
        return ok();
      case "corrupt-marker":
        return ok(await this.corruptMarker());
      case "sweep":
        await this.backend.runJobs(true);
        return ok();
      case "expect": {
        const checked = await check(step.target, {
          client: this.client,
          lastInitialize: this.lastInitialize,
          serverLicense: () => this.backend.licenses.get(this.license.id),
        });
        return { outcome: checked.ok ? "ok" : "failed", message: checked.message };
      }
    }
  }

  private running(): LicenseClient {
    if (!this.client) throw new SimulatorError("simulator.step", "no application is running: start it first");
    return this.client;
  }

  private async start(): Promise<StepOutcome> {
    if (this.client) throw new SimulatorError("simulator.step", "the application is already running");
    const client = new LicenseClient({
      serverUrl: this.backend.url,
      licenseFilePath: this.licensePath,
      publicKey: this.license.publicKey,
      hwFingerprint: this.machine,
      machineName: "licensing-sim",
      fetch: this.network.fetch,
      clock: this.clientNow,
      scheduler: this.scheduler,
      deactivateOnDispose: this.scenario.deactivateOnDispose,
      // Offline and injected errors fail at once; a slow answer (a loaded CI machine) is waited for, so a
      // step's outcome never depends on real time. The SDK's own default is 5 s.
      activationTimeoutMs: ACTIVATION_WAIT_MS,
    });
    client.onStatusChange((status, previous) => {
      if (!this.inAdvance) return;
      const { reason } = client.statusDetails;
      this.record(
        "transition",
        `${previous} → ${status}`,
        null,
        { outcome: "ok", message: null },
        { status, reason },
      );
    });
    this.client = client;
    this.lastInitialize = await client.initialize();
    return { outcome: "ok", message: `initialize() → ${this.lastInitialize}` };
  }

  private async stop() {
    const client = this.client;
    this.client = null;
    await client?.dispose();
  }

  /**
   * Moves time forward by `ms`, stopping at every timer the client set (heartbeats, retries) and every
   * status transition it predicts, so each happens at its own time; the in-process server's jobs run on
   * their virtual intervals on the way, and all of them at the end.
   */
  private async advance(ms: number) {
    const target = this.elapsed + ms;
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
        this.client?.refreshStatus(); // the client notices (and reports) a transition where time stops
        if (this.elapsed >= target) break;
      }
    } finally {
      this.inAdvance = false;
    }
  }

  /** When (in scenario time) the client's status will change by itself, if it will. */
  private nextTransition(): number | null {
    if (!this.client) return null;
    const { nextTransitionAt, at } = this.client.statusDetails;
    return nextTransitionAt === null ? null : this.elapsed + (nextTransitionAt - at);
  }

  private moveTime(ms: number) {
    ms = Math.round(ms);
    if (ms <= 0) return;
    this.elapsed += ms;
    if (this.backend.kind === "local") this.backend.advanceServer(ms);
    else this.clockOffset += ms;
  }

  private async readCached(path: string, what: string): Promise<string> {
    try {
      return (await readFile(path, "utf8")).trim();
    } catch {
      throw new SimulatorError("simulator.step", `there is no ${what} to corrupt`);
    }
  }

  private async corruptMarker(): Promise<string> {
    const path = cachePaths(this.licensePath).marker;
    await writeFile(path, damageSignature(await this.readCached(path, "cached marker")));
    return "signature damaged; read at the next start";
  }

  private async corruptLicense(): Promise<string> {
    const text = await this.readCached(this.licensePath, "license file");
    let damaged: string;
    try {
      const envelope = JSON.parse(text) as { token: string };
      damaged = JSON.stringify({ ...envelope, token: damageSignature(envelope.token) });
    } catch {
      damaged = damageSignature(text); // a bare token
    }
    await writeFile(this.licensePath, damaged);
    return "token signature damaged; read at the next start";
  }

  private record(
    kind: TimelineEvent["kind"],
    step: string,
    line: number | null,
    { outcome, message }: StepOutcome,
    status?: Pick<TimelineEvent, "status" | "reason">,
  ) {
    // A step ends where time stops: the client observes its clock there, as its watch would.
    const details = status ?? (this.client ? this.client.refreshStatus() : null);
    let requests = null;
    if (kind !== "transition") {
      const counts = this.network.takeCounts();
      if (counts.ok + counts.refused + counts.failed > 0) requests = counts;
    }
    this.events.push({
      kind,
      at: this.trueNow(),
      clockAt: this.clientNow(),
      elapsed: this.elapsed,
      line,
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

/** Runs one scenario; the backend is the caller's (opened and closed around it). */
export function runScenario(scenario: Scenario, backend: Backend): Promise<ScenarioResult> {
  return new ScenarioRun(scenario, backend).run();
}
