import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";

export const RESPONSE_BODY_LIMIT = 2000;
// Bytes read from a response before it is cut off: enough for 2000 characters of any UTF-8 text.
const RESPONSE_READ_LIMIT = RESPONSE_BODY_LIMIT * 4;

export type SendResult =
  { kind: "response"; statusCode: number; body: string } | { kind: "error"; error: string };

/**
 * POSTs `body` to `url`, connecting only to `addresses` (already checked), within `timeoutMs` from the
 * start to the last byte read. Redirects are never followed: a 3xx is an answer like any other.
 */
export function postOnce(options: {
  url: URL;
  addresses: string[];
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
}): Promise<SendResult> {
  const { url, addresses, body, timeoutMs } = options;
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    const all = addresses.map((address) => ({ address, family: isIP(address) }));
    if ((lookupOptions as { all?: boolean }).all) (callback as (e: null, a: typeof all) => void)(null, all);
    else callback(null, all[0]!.address, all[0]!.family);
  };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = transport.request(url, {
      method: "POST",
      headers: {
        ...options.headers,
        "content-length": String(body.length),
        "user-agent": "licensing-webhooks/1",
      },
      lookup: pinned,
      agent: false,
    });
    const timer = setTimeout(() => {
      finish({ kind: "error", error: `timeout: no complete answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on("error", (error) => finish({ kind: "error", error: `network error: ${error.message}` }));
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish({
          kind: "response",
          statusCode: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8").slice(0, RESPONSE_BODY_LIMIT),
        });
      response.on("data", (chunk: Buffer) => {
        if (size >= RESPONSE_READ_LIMIT) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_READ_LIMIT) {
          done();
          request.destroy();
        }
      });
      response.on("end", done);
      response.on("error", (error) => finish({ kind: "error", error: `network error: ${error.message}` }));
    });
    request.end(body);
  });
}
