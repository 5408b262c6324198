import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The vendor's webhook endpoint: counts every delivery id it is sent (X-Service-Delivery) and checks the
 * spec's signature (`X-Service-Signature: sha256=<hex>` over the exact body), answering 200 to each.
 */
export async function startReceiver(secret: string, elapsed: () => number) {
  const counts = new Map<string, number>();
  /** When each delivery first arrived (seconds since the load started). */
  const firstAt = new Map<string, number>();
  let badSignatures = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const id = String(req.headers["x-service-delivery"]);
      const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body).digest("hex")}`);
      const sent = Buffer.from(String(req.headers["x-service-signature"]));
      if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) badSignatures++;
      counts.set(id, (counts.get(id) ?? 0) + 1);
      if (!firstAt.has(id)) firstAt.set(id, elapsed());
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    counts,
    firstAt,
    badSignatures: () => badSignatures,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
