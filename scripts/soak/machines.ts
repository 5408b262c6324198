import type { Answer, HttpClient } from "./http.ts";
import type { Recorder } from "./record.ts";

export interface LicenseRef {
  id: string;
  key: string;
}

/** What the service acknowledged (a 2xx), to be found in the database at the end. */
export interface Ledger {
  /** Activation id → the state its last acknowledged request left it in; `uncertain` once a request on it went unanswered. */
  activations: Map<string, { state: "active" | "inactive"; uncertain: boolean }>;
  leases: Set<string>;
  licenses: Set<string>;
  heartbeats: number;
}

interface Machine {
  license: LicenseRef;
  /** Whether it has had its first turn. */
  started: boolean;
  floating: boolean;
  fingerprint: string;
  activationId?: string;
  leaseId?: string;
  turn: number;
  /** When its next request is due (ms since epoch). */
  dueAt: number;
}

export interface MachineOptions {
  nodeLocked: LicenseRef[];
  floating: LicenseRef[];
  machines: number;
  /** Share of the machines on the floating licenses. */
  floatingShare: number;
  /** Requests per second the scheduler may start, all machines together. */
  rate: number;
  /** Requests in flight at most. */
  inFlight: number;
  /** Seconds between two requests of one machine (its heartbeat interval, compressed). */
  periodSeconds: number;
  /** The next instance to send to (round robin, as a load balancer). */
  target: () => string;
  http: HttpClient;
  recorder: Recorder;
  ledger: Ledger;
}

const CLIENT = "/api/v1/client";
/** Per turn of a machine holding a seat: it gives the seat back now and then, so seats change hands. */
const DEACTIVATE_CHANCE = 0.02;
const RELEASE_CHANCE = 0.03;
const BUCKET_MS = 100;

/**
 * Simulated machines driven by one scheduler: each machine is a small state (activation, lease) with the
 * time of its next request in a timing wheel; a tick moves the due ones to a queue, and requests start from
 * it under a rate cap and a bound on requests in flight. Thousands of machines cost a few objects each.
 */
export function startMachines(options: MachineOptions) {
  const { http, recorder, ledger } = options;
  const period = options.periodSeconds * 1000;
  const wheel = new Map<number, Machine[]>();
  const ready: Machine[] = [];
  let readyHead = 0;
  let inFlight = 0;
  let stopping = false;
  let tokens = 0;
  let lastTick = Date.now();
  let lastBucket = Math.floor(lastTick / BUCKET_MS);
  /** How late requests started against their due time (ms), sampled: the scheduler's own saturation. */
  const lateness: number[] = [];
  let idle: (() => void) | undefined;
  let notStarted = options.machines;
  /** When every machine had had its first turn (ms since epoch): the fleet is up. */
  let fleetUpAt: number | undefined;

  const schedule = (machine: Machine, delayMs: number) => {
    machine.dueAt = Date.now() + delayMs;
    const bucket = Math.floor(machine.dueAt / BUCKET_MS);
    const list = wheel.get(bucket);
    if (list) list.push(machine);
    else wheel.set(bucket, [machine]);
  };
  const jitter = (ms: number) => ms * (0.8 + Math.random() * 0.4);
  const floatingCount = Math.round(options.machines * options.floatingShare);
  for (let i = 0; i < options.machines; i++) {
    const floating = i < floatingCount;
    const pool = floating ? options.floating : options.nodeLocked;
    const machine: Machine = {
      license: pool[i % pool.length]!,
      floating,
      fingerprint: `soak-machine-${i}`,
      turn: 0,
      dueAt: 0,
      started: false,
    };
    // The fleet comes up over the first period.
    schedule(machine, Math.random() * period);
  }

  const note = (activationId: string | undefined, answer: Answer, state?: "active" | "inactive") => {
    if (!activationId) return;
    const entry = ledger.activations.get(activationId);
    // Refused connections never reached a server; a reset or a timeout may have been committed.
    if (answer.status === 0 && answer.code !== "ECONNREFUSED" && entry) entry.uncertain = true;
    if (state) ledger.activations.set(activationId, { state, uncertain: entry?.uncertain ?? false });
  };

  async function act(machine: Machine) {
    const base = options.target();
    const { license } = machine;
    const ok = (a: Answer) => a.status >= 200 && a.status < 300;
    const retry = () => schedule(machine, jitter(Math.min(period, 3000)));
    if (!machine.activationId) {
      const answer = await http.send(base, `${CLIENT}/activate`, {
        licenseKey: license.key,
        hwFingerprint: machine.fingerprint,
      });
      recorder.add("activate", answer);
      if (ok(answer)) {
        machine.activationId = String(answer.body!.activationId);
        note(machine.activationId, answer, "active");
        return schedule(machine, machine.floating ? jitter(1000) : jitter(period));
      }
      return answer.status === 409 ? schedule(machine, jitter(period)) : retry();
    }
    const activationId = machine.activationId;
    machine.turn++;
    if (!machine.floating) {
      if (Math.random() < DEACTIVATE_CHANCE) {
        const answer = await http.signed(base, `${CLIENT}/deactivate`, {
          licenseKey: license.key,
          activationId,
        });
        recorder.add("deactivate", answer);
        note(activationId, answer, ok(answer) ? "inactive" : undefined);
        if (!ok(answer)) return retry();
        machine.activationId = undefined;
        return schedule(machine, jitter(period));
      }
      return heartbeat(machine, base, activationId);
    }
    if (!machine.leaseId) {
      const answer = await http.signed(base, `${CLIENT}/leases`, { licenseKey: license.key, activationId });
      recorder.add("lease.acquire", answer);
      note(activationId, answer);
      if (ok(answer)) {
        machine.leaseId = String(answer.body!.leaseId);
        ledger.leases.add(machine.leaseId);
      }
      if (answer.code === "activation.not_found") machine.activationId = undefined;
      return ok(answer) || answer.status === 409 ? schedule(machine, jitter(period)) : retry();
    }
    const leaseId = machine.leaseId;
    if (machine.turn % 2 === 0) return heartbeat(machine, base, activationId);
    const release = Math.random() < RELEASE_CHANCE;
    const answer = await http.signed(base, `${CLIENT}/leases/${release ? "release" : "renew"}`, {
      licenseKey: license.key,
      leaseId,
    });
    recorder.add(release ? "lease.release" : "lease.renew", answer);
    if (ok(answer) ? release : answer.status === 409 || answer.status === 410) machine.leaseId = undefined;
    return ok(answer) || answer.status === 409 || answer.status === 410
      ? schedule(machine, jitter(period))
      : retry();
  }

  async function heartbeat(machine: Machine, base: string, activationId: string) {
    const answer = await http.signed(base, `${CLIENT}/heartbeat`, {
      licenseKey: machine.license.key,
      activationId,
    });
    recorder.add("heartbeat", answer);
    note(activationId, answer);
    if (answer.status === 200) ledger.heartbeats++;
    if (answer.code === "activation.not_found") {
      machine.activationId = undefined;
      machine.leaseId = undefined;
    }
    schedule(
      machine,
      answer.status === 0 || answer.status >= 500 ? jitter(Math.min(period, 3000)) : jitter(period),
    );
  }

  const timer = setInterval(() => {
    const now = Date.now();
    tokens = Math.min(tokens + ((now - lastTick) / 1000) * options.rate, options.rate / 5);
    lastTick = now;
    const bucketNow = Math.floor(now / BUCKET_MS);
    for (; lastBucket <= bucketNow; lastBucket++) {
      const due = wheel.get(lastBucket);
      if (due) {
        wheel.delete(lastBucket);
        ready.push(...due);
      }
    }
    while (!stopping && tokens >= 1 && inFlight < options.inFlight && readyHead < ready.length) {
      const machine = ready[readyHead++]!;
      tokens--;
      inFlight++;
      if (Math.random() < 0.05) lateness.push(now - machine.dueAt);
      if (!machine.started) {
        machine.started = true;
        if (--notStarted === 0) fleetUpAt = now;
      }
      void act(machine)
        .catch((error: unknown) => console.error("soak: a machine's request threw", error))
        .finally(() => {
          inFlight--;
          if (stopping && inFlight === 0) idle?.();
        });
    }
    if (readyHead > 10_000) {
      ready.splice(0, readyHead);
      readyHead = 0;
    }
  }, 10);

  return {
    /** Machines waiting for their turn past their due time (the scheduler's backlog). */
    backlog: () => ready.length - readyHead,
    lateness,
    fleetUpAt: () => fleetUpAt,
    /** Starts no more requests; resolves when those in flight have been answered. */
    async stop() {
      stopping = true;
      clearInterval(timer);
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
    },
  };
}
