/** What the simulated network does with the client's requests. */
export type NetworkMode =
  | { kind: "online" }
  | { kind: "offline" }
  | { kind: "server-errors"; status: number; retryAfterMs: number | null };

export interface NetworkCounts {
  /** Requests that reached the server and were answered 2xx. */
  ok: number;
  /** Answered with another status by the server. */
  refused: number;
  /** Failed by the simulated network (offline, injected errors). */
  failed: number;
}

/**
 * A fault-injecting `fetch` for the client: passes requests through when online, fails them as `fetch`
 * does without a network when offline, or answers every one with an injected error status. Counts them.
 */
export class SimulatedNetwork {
  mode: NetworkMode = { kind: "online" };
  counts: NetworkCounts = { ok: 0, refused: 0, failed: 0 };
  /**
   * The body of the server's last answer to `POST /client/activate` (`{activationId, healed, …}`, or the
   * error `{code, retryAt, machines, …}`): what the SDK was told, which its status does not all show.
   */
  lastActivation: unknown = null;

  constructor(private readonly realFetch: typeof fetch = globalThis.fetch) {}

  get reachable() {
    return this.mode.kind === "online";
  }

  /** Takes the counts so far and starts new ones. */
  takeCounts(): NetworkCounts {
    const counts = this.counts;
    this.counts = { ok: 0, refused: 0, failed: 0 };
    return counts;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const mode = this.mode;
    if (mode.kind === "offline") {
      this.counts.failed++;
      throw new TypeError("fetch failed", {
        cause: new Error("connect ENETUNREACH (licensing-sim: offline)"),
      });
    }
    if (mode.kind === "server-errors") {
      this.counts.failed++;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (mode.retryAfterMs !== null) headers["retry-after"] = String(Math.ceil(mode.retryAfterMs / 1000));
      const body = {
        code: mode.status === 429 ? "rate_limited" : "server.unavailable",
        message: `Injected by licensing-sim: server-errors ${mode.status}`,
        status: mode.status,
      };
      return new Response(JSON.stringify(body), { status: mode.status, headers });
    }
    const response = await this.realFetch(input, init);
    if (response.ok) this.counts.ok++;
    else this.counts.refused++;
    if (new URL(requestUrl(input)).pathname.endsWith("/client/activate"))
      this.lastActivation = await response
        .clone()
        .json()
        .catch(() => null);
    return response;
  };
}

const requestUrl = (input: Parameters<typeof fetch>[0]) =>
  typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
