import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { verify as verifyGithubStyle } from "@octokit/webhooks-methods";
import { Webhook } from "standardwebhooks";
import { vi } from "vitest";

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  raw: Buffer;
  body: { event: string; occurredAt: string; data: Record<string, unknown> };
  deliveryId: string;
  /** Both signatures checked, as a receiver would, over the exact bytes received. */
  verified: { xServiceSignature: boolean; standardWebhooks: boolean };
  receivedAt: number;
}

/** What the receiver does with a request: answer with a status, or never answer. */
export type Reaction =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true }
  | { delayMs: number; status: number };

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** Reactions for the next requests, in order; when empty the receiver answers 200. */
  queue: Reaction[];
  /**
   * Resolves once `count` deliveries have arrived, or rejects after `timeoutMs` (20 s by default): a bound
   * on a hang, never a claim about speed.
   */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  /** Deliveries whose id arrived while an earlier request with the same id was still unanswered. */
  overlaps: string[];
  /** Deliveries left unanswered (`hang`) whose connection the sender closed: it gave up waiting. */
  abandoned: string[];
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on loopback that verifies every delivery with the libraries third parties use:
 * `@octokit/webhooks-methods` for `X-Service-Signature: sha256=…`, `standardwebhooks` for `webhook-*`
 * (given the base64 of the secret's UTF-8 bytes). `now` is the receiver's clock for the timestamp check.
 */
export async function startWebhookReceiver(options: {
  secret: string;
  now: () => Date;
}): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const queue: Reaction[] = [];
  const overlaps: string[] = [];
  const abandoned: string[] = [];
  const inFlight = new Set<string>();
  const waiters: (() => void)[] = [];
  const hanging: ServerResponse[] = [];
  let closing = false;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = Buffer.concat(chunks);
      const deliveryId = String(req.headers["x-service-delivery"]);
      if (inFlight.has(deliveryId)) overlaps.push(deliveryId);
      inFlight.add(deliveryId);
      const delivery: ReceivedDelivery = {
        headers: req.headers,
        raw,
        body: JSON.parse(raw.toString("utf8")),
        deliveryId,
        verified: await verifySignatures(options.secret, raw.toString("utf8"), req.headers, options.now()),
        receivedAt: Date.now(),
      };
      const reaction = queue.shift() ?? { status: 200 };
      const answer = (status: number, body = "ok", headers: Record<string, string> = {}) => {
        inFlight.delete(deliveryId);
        res.writeHead(status, { "content-type": "text/plain", ...headers }).end(body);
      };
      received.push(delivery);
      for (const wake of waiters.splice(0)) wake();
      if ("hang" in reaction) {
        hanging.push(res);
        res.on("close", () => {
          inFlight.delete(deliveryId);
          if (!closing) abandoned.push(deliveryId);
        });
      } else if ("delayMs" in reaction) setTimeout(() => answer(reaction.status), reaction.delayMs);
      else answer(reaction.status, reaction.body, reaction.headers);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    queue,
    overlaps,
    abandoned,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`received ${received.length} of ${count} deliveries`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received;
    },
    async close() {
      closing = true;
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Both signatures of a delivery checked over `body` as a receiver would, with the libraries third parties
 * use: `@octokit/webhooks-methods` for `X-Service-Signature: sha256=…`, `standardwebhooks` for
 * `webhook-*` (given the base64 of the secret's UTF-8 bytes). `now` is the receiver's clock.
 */
export async function verifySignatures(
  secret: string,
  body: string,
  headers: IncomingHttpHeaders,
  now: Date,
): Promise<ReceivedDelivery["verified"]> {
  const standard = new Webhook(Buffer.from(secret, "utf8").toString("base64"));
  return {
    xServiceSignature: await verifyGithubStyle(secret, body, String(headers["x-service-signature"])).catch(
      () => false,
    ),
    standardWebhooks: verifyStandard(standard, body, headers, now),
  };
}

/**
 * `standardwebhooks` checks the timestamp against the wall clock (5 minutes of tolerance); the service
 * stamps with its own clock, which tests move. The receiver's clock is set to the service's for that
 * synchronous call only, as a receiver whose clock agrees with the service's would see it.
 */
function verifyStandard(standard: Webhook, body: string, headers: IncomingHttpHeaders, now: Date): boolean {
  vi.useFakeTimers({ toFake: ["Date"], now });
  try {
    standard.verify(body, {
      "webhook-id": String(headers["webhook-id"]),
      "webhook-timestamp": String(headers["webhook-timestamp"]),
      "webhook-signature": String(headers["webhook-signature"]),
    });
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
}
