import type { Instance } from "../../apps/server/src/testing/instances.ts";
import type { PrivatePostgres } from "../../apps/server/src/testing/private-postgres.ts";

/** A fault and the time around it where refusals are expected (seconds since the load started). */
export interface FaultWindow {
  name: string;
  at: number;
  /** When the service was whole again (the instance ready, or PostgreSQL accepting connections and both instances ready). */
  recoveredAt?: number;
  /** `at` to `recoveredAt` + GRACE_SECONDS: errors inside are the fault's, errors outside are not. */
  until?: number;
  detail: string;
}

/** After recovery: pools reconnect, keep-alive sockets to the dead process fail once, a retried request lands. */
export const GRACE_SECONDS = 10;

export interface FaultPlan {
  /** Share of the run at which one instance is killed with SIGKILL, then restarted; none when absent. */
  killAt?: number;
  /** Share of the run at which PostgreSQL is restarted (`pg_ctl stop -m fast`, then start); none when absent. */
  postgresAt?: number;
}

export const DEFAULT_PLAN: FaultPlan = { killAt: 0.4, postgresAt: 0.6 };
/** `--no-faults`: the load alone (to tell what the load does to memory from what a fault does). */
export const NO_FAULTS: FaultPlan = {};

/**
 * Runs the faults at their times: `kill -9` of the second instance (restarted at once, as a supervisor
 * would, and waited for until it answers /readyz), then a restart of the PostgreSQL cluster of the run.
 */
export function scheduleFaults(input: {
  plan: FaultPlan;
  durationSeconds: number;
  elapsed: () => number;
  victim: Instance;
  instances: Instance[];
  postgres: PrivatePostgres;
  say: (message: string) => void;
}) {
  const { plan, durationSeconds, elapsed, victim, postgres, say } = input;
  const windows: FaultWindow[] = [];
  const timers: NodeJS.Timeout[] = [];
  const done: Promise<void>[] = [];
  /** Faults whose recovery failed (an instance that would not start again). */
  const failures: string[] = [];
  const at = (share: number | undefined, run: () => Promise<void>) => {
    if (share === undefined) return;
    done.push(
      new Promise<void>((resolve, reject) =>
        timers.push(setTimeout(() => run().then(resolve, reject), share * durationSeconds * 1000)),
      ).catch((error: unknown) => {
        failures.push(String(error).slice(0, 500));
        say(`a fault did not recover: ${String(error).slice(0, 500)}`);
      }),
    );
  };
  const allReady = async () => {
    for (;;) {
      const answers = await Promise.all(
        input.instances.map((one) =>
          fetch(`${one.url}/readyz`).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      if (answers.every((status) => status === 200)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const recovered = (window: FaultWindow) => {
    window.recoveredAt = elapsed();
    window.until = window.recoveredAt + GRACE_SECONDS;
    say(`${window.name}: recovered after ${(window.recoveredAt - window.at).toFixed(1)} s`);
  };

  at(plan.killAt, async () => {
    const window: FaultWindow = { name: `kill -9 of instance ${victim.name}`, at: elapsed(), detail: "" };
    windows.push(window);
    const pid = victim.pid();
    await victim.kill9();
    say(`${window.name} (pid ${pid})`);
    // Restarted at once, and again if the start fails, as a supervisor (systemd's Restart=always) does.
    const failedStarts: string[] = [];
    for (;;) {
      try {
        await victim.restart();
        break;
      } catch (error) {
        const reason = /error: (.*)/.exec(String(error))?.[1] ?? String(error).slice(0, 200);
        failedStarts.push(reason);
        say(`instance ${victim.name} exited while starting (${reason}); starting it again`);
        if (failedStarts.length >= 10) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    window.detail =
      `pid ${pid} killed, restarted as pid ${victim.pid()}` +
      (failedStarts.length
        ? `; ${failedStarts.length} start(s) failed first: ${[...new Set(failedStarts)].join("; ")}`
        : "");
    recovered(window);
  });
  at(plan.postgresAt, async () => {
    const window: FaultWindow = { name: "PostgreSQL restart", at: elapsed(), detail: "" };
    windows.push(window);
    await postgres.stop("fast");
    const down = elapsed();
    say(`PostgreSQL stopped (fast) in ${(down - window.at).toFixed(1)} s`);
    await postgres.start();
    window.detail = `pg_ctl stop -m fast ${(down - window.at).toFixed(1)} s, down until start ${(elapsed() - window.at).toFixed(1)} s`;
    await allReady();
    recovered(window);
  });

  return {
    windows,
    failures,
    /** Resolves when every fault has run and recovered (a failed recovery is in `failures`). */
    finished: () => Promise.all(done),
    cancel: () => timers.forEach(clearTimeout),
  };
}

export const inWindow = (windows: FaultWindow[], at: number) =>
  windows.some((w) => at >= w.at && at <= (w.until ?? Infinity));
