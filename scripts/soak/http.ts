import { Agent, request } from "node:http";
import { signRequest } from "@licensing/core";

/** One answer, or the network error that stood in for it (`status` 0, `code` the error's code). */
export interface Answer {
  status: number;
  /** The error catalogue's `code` of an error answer, or the network error's (ECONNREFUSED, …). */
  code: string | null;
  body: Record<string, unknown> | null;
  ms: number;
}

/** Bounds a hang (a killed instance's half-open socket), never a claim about speed. */
const TIMEOUT_MS = 15_000;

/**
 * A keep-alive HTTP client for the simulated machines: thousands of machines share a few dozen sockets per
 * instance, as the SDKs behind one NAT would not, but as a load balancer's upstream pool does.
 */
export function httpClient(maxSockets: number) {
  // An idle socket is let go after 4 s, before the server's keep-alive timeout (Node's default, 5 s) closes
  // it: as a load balancer's upstream idle timeout must be shorter than its backends', or a request sent on a
  // socket the server is closing at that moment is reset (ECONNRESET outside any fault, seen in the soak).
  const agent = new Agent({ keepAlive: true, maxSockets, timeout: 4000 });

  function send(base: string, path: string, payload: unknown, headers: Record<string, string> = {}) {
    const body = JSON.stringify(payload);
    const started = performance.now();
    return new Promise<Answer>((resolve) => {
      const req = request(
        `${base}${path}`,
        {
          method: "POST",
          agent,
          timeout: TIMEOUT_MS,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(body),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", (error: NodeJS.ErrnoException) => fail(error));
          res.on("end", () => {
            let parsed: Record<string, unknown> | null = null;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
            } catch {
              // An empty or non-JSON body (a 204, a proxy's page): no code to read.
            }
            const status = res.statusCode ?? 0;
            resolve({
              status,
              code: status >= 400 && typeof parsed?.code === "string" ? parsed.code : null,
              body: parsed,
              ms: performance.now() - started,
            });
          });
        },
      );
      const fail = (error: NodeJS.ErrnoException) =>
        resolve({
          status: 0,
          code: error.code ?? error.message,
          body: null,
          ms: performance.now() - started,
        });
      req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })));
      req.on("error", fail);
      req.end(body);
    });
  }

  return {
    send,
    /** A client request signed as the SDK signs it (v1 + v2, `@licensing/core`'s `signRequest`). */
    signed(base: string, path: string, payload: { licenseKey: string } & Record<string, unknown>) {
      const body = JSON.stringify(payload);
      const timestamp = String(Math.floor(Date.now() / 1000));
      return send(base, path, payload, {
        "x-service-timestamp": timestamp,
        "x-service-signature": signRequest(payload.licenseKey, timestamp, { method: "POST", path, body }),
      });
    },
    close: () => agent.destroy(),
  };
}

export type HttpClient = ReturnType<typeof httpClient>;
