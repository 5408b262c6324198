import { readFileSync } from "node:fs";
import type { Instance } from "../../apps/server/src/testing/instances.ts";
import type { Check } from "./invariants.ts";

export interface RssSample {
  at: number;
  process: string;
  pid: number;
  mib: number;
  /** The V8 heap in use (`nodejs_heap_size_used_bytes` from the instance's `/metrics`), MiB. */
  heapMiB?: number;
}

/** The heap in use as the instance's `/metrics` reports it, or undefined when it does not answer. */
async function heapMiB(url: string): Promise<number | undefined> {
  try {
    const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) });
    const match = /^nodejs_heap_size_used_bytes (\d+(?:\.\d+)?)/m.exec(await res.text());
    return match ? Number(match[1]) / 2 ** 20 : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process from /proc (Linux), in MiB; undefined when it is gone. */
function rssMiB(pid: number): number | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples the RSS of every instance's current process (and its heap in use) and of this load generator. */
export function startRssSampler(instances: Instance[], everyMs: number, elapsed: () => number) {
  const samples: RssSample[] = [];
  const sample = async () => {
    const at = elapsed();
    await Promise.all(
      instances.map(async (instance) => {
        const pid = instance.pid();
        const mib = pid === undefined ? undefined : rssMiB(pid);
        if (pid === undefined || mib === undefined) return;
        const entry: RssSample = { at, process: instance.name, pid, mib };
        samples.push(entry);
        entry.heapMiB = await heapMiB(instance.url);
      }),
    );
    samples.push({ at, process: "load", pid: process.pid, mib: process.memoryUsage().rss / 2 ** 20 });
  };
  void sample();
  const timer = setInterval(() => void sample(), everyMs);
  return { samples, stop: () => clearInterval(timer) };
}

/**
 * Memory flat: for each server process, the median RSS of the last third of its samples once warm (from
 * `warmSeconds` after the run's start, or after the process's own start for a restarted one) against the
 * median of the first third, growth under `limit`. A process with fewer than six samples after warming up is
 * reported, not judged; with `judge` false nothing is (a run too short to have a time after its warm-up).
 */
export function memoryCheck(
  samples: RssSample[],
  warmSeconds: number,
  limit: number,
  restartWarmSeconds = warmSeconds,
  judge = true,
): Check {
  const parts: string[] = [];
  let ok = true;
  const pids = [...new Set(samples.filter((s) => s.process !== "load").map((s) => `${s.process}:${s.pid}`))];
  for (const key of pids) {
    const own = samples.filter((s) => `${s.process}:${s.pid}` === key);
    const from = Math.max(warmSeconds, own[0]!.at + (own[0]!.at > 1 ? restartWarmSeconds : 0));
    const warm = own.filter((s) => s.at >= from);
    const [name, pid] = key.split(":");
    if (warm.length < 6) {
      parts.push(`${name} (pid ${pid}): ${warm.length} samples after ${from.toFixed(0)} s, too few to judge`);
      continue;
    }
    // Thirds, and their medians: RSS follows the garbage collector's sawtooth (tens of MiB between two
    // samples), which a sample or two at each end would mistake for growth or for shrinkage.
    const third = Math.floor(warm.length / 3);
    const median = (list: RssSample[]) => {
      const sorted = list.map((x) => x.mib).sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)]!;
    };
    const start = median(warm.slice(0, third));
    const end = median(warm.slice(-third));
    const growth = end / start - 1;
    const heap = (list: RssSample[]) => {
      const values = list.flatMap((x) => (x.heapMiB === undefined ? [] : [x.heapMiB])).sort((a, b) => a - b);
      return values.length ? values[Math.floor(values.length / 2)]!.toFixed(0) : "?";
    };
    if (growth >= limit) ok = false;
    parts.push(
      `${name} (pid ${pid}): median ${start.toFixed(0)} MiB in the first third of ${warm.length} samples from ${from.toFixed(0)} s, ${end.toFixed(0)} MiB in the last (${growth >= 0 ? "+" : ""}${(growth * 100).toFixed(1)} %; heap in use ${heap(warm.slice(0, third))} → ${heap(warm.slice(-third))} MiB)`,
    );
  }
  if (!judge)
    return {
      name: `memory (reported, not judged: the run ends within its first minute)`,
      ok: true,
      judged: false,
      detail: parts.join("; "),
    };
  return {
    name: `memory flat after ${warmSeconds} s (growth < ${limit * 100} %)`,
    ok,
    detail: parts.join("; "),
  };
}
