import type { NetworkMode } from "../shared/bridge.ts";

/**
 * The QA panel's levers, kept per session (never module state): the network between the SDK and the server,
 * and the clock the SDK reads. With QA off they stay at "online" and offset 0.
 */
export interface QaControls {
  network: NetworkMode;
  clockOffsetMs: number;
  /** The clock the SDK reads: the real one plus the offset. */
  now(): number;
  /** The fetch the SDK uses: the real one, unless the QA panel cut the network or broke the server. */
  fetch: typeof fetch;
}

export function qaControls(baseClock: () => number, baseFetch: typeof fetch): QaControls {
  const controls: QaControls = {
    network: "online",
    clockOffsetMs: 0,
    now: () => baseClock() + controls.clockOffsetMs,
    fetch: async (input, init) => {
      if (controls.network === "offline") {
        // What fetch throws when nothing answers: the SDK reads it as `network.error`.
        throw new TypeError("fetch failed", { cause: new Error("connect ENETUNREACH (QA: offline)") });
      }
      if (controls.network === "server-error") {
        return new Response(
          JSON.stringify({ code: "internal", message: "QA: the server fails with 503", status: 503 }),
          { status: 503, headers: { "content-type": "application/json" } },
        );
      }
      return baseFetch(input, init);
    },
  };
  return controls;
}
