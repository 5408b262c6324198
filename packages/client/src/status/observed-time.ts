/**
 * The clock-rollback defence (decision 0019). The library remembers the latest time it has observed and
 * the clock's reading at that moment. From then on time is the observed time carried forward by however
 * far the clock has moved forward since, and never less: a clock set back is read as the last observed
 * time, and time goes on from there as the clock moves, so a rollback buys nothing, during a run or across
 * a restart. Observing rebases the pair on the clock's current reading.
 */
export interface ObservedTime {
  /** The latest time observed (epoch ms). */
  at: number;
  /** The clock's reading when it was observed (epoch ms). */
  clockAt: number;
}

/** The earliest it can be at clock reading `clockNow`. */
export const observedFloor = (observed: ObservedTime | null, clockNow: number) =>
  observed ? observed.at + Math.max(0, clockNow - observed.clockAt) : clockNow;

/** Observes the clock, and optionally a trusted time (a server's `Date`, a marker's `iat`) beside it. */
export function observe(
  observed: ObservedTime | null,
  clockNow: number,
  trusted: number | null = null,
): ObservedTime {
  return {
    at: Math.max(clockNow, observedFloor(observed, clockNow), trusted ?? clockNow),
    clockAt: clockNow,
  };
}
