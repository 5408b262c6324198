/** The only source of time for domain code (docs/architecture.md D7). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface ManualClock extends Clock {
  set(at: Date): void;
  advance(ms: number): void;
}

/** A clock that moves only when told; tests and QA time travel use it. */
export function createManualClock(start = new Date("2026-01-01T00:00:00Z")): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (at) => void (current = at.getTime()),
    advance: (ms) => void (current += ms),
  };
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
