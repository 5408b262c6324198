import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Deps, RequestInfo } from "@licensing/core";
import proxyAddr from "proxy-addr";
import { bodyError, retryAfterSeconds, toErrorResponse } from "../errors.ts";
import { logFinished, loggableUrl, requestIdFrom, withRequestId } from "../http/logging.ts";
import type { ContourLimiter } from "../http/rate-limit.ts";
import type { CallRequest } from "./call-request.ts";
import type { AnyOperation } from "./operation.ts";
import { callOperation } from "./reads.ts";
import { parsePart } from "./rest.ts";

/**
 * The client API's hot path (docs/decisions/0057): its JSON POST operations (activate, heartbeat, the
 * leases…), served from their declarations straight onto Node's response, ahead of Express (its router,
 * helmet, body-parser and `res.json`). Each request keeps everything the Express route gives it: the
 * request id and its log line, the request metrics, the security and no-store headers, the Date from the
 * service's clock, the client contour's rate limit, a body of at most 1 MiB kept byte for byte for the
 * signature, the same parsing, the same errors. Only the plain case is taken (the declared path exactly,
 * JSON in UTF-8, no Content-Encoding); any other request, an odd spelling of the path included, goes on
 * to the Express routes, which answer it as before.
 */
export interface DirectOptions {
  deps: Deps;
  /** The client contour's limiter, the one the Express client routes count with. */
  limiter: ContourLimiter;
  /** The headers of every API answer (security headers and `Cache-Control`), computed once. */
  headers: Array<[string, string]>;
  validateResponses: boolean;
  /** Where the operations' paths are mounted (`/api/v1`). */
  prefix: string;
  /** Which proxies' `X-Forwarded-For` to believe: the Express app's compiled `trust proxy fn`. */
  trustProxy: (address: string, hop: number) => boolean;
}

/** A request the direct routes took, with the client address Express would give it as `req.ip`. */
type DirectRequest = IncomingMessage & { ip: string | undefined };

const BODY_LIMIT = 1024 * 1024;
const JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** A request the direct route may take: JSON in UTF-8, sent as it is. Anything else is Express's. */
const isPlainJson = (headers: IncomingHttpHeaders) =>
  JSON_TYPE.test(headers["content-type"] ?? "") &&
  (headers["content-encoding"] === undefined || headers["content-encoding"].toLowerCase() === "identity");

/** Reads the body whole, at most BODY_LIMIT bytes, as body-parser would refuse it. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (declared > BODY_LIMIT) return Promise.reject(bodyError("entity.too.large"));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) return void chunks.push(chunk);
      req.off("data", onData);
      req.resume();
      reject(bodyError("entity.too.large"));
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once("error", () => reject(bodyError("request.aborted")));
  });
}

/** JSON as body-parser's strict mode reads it: an object or an array; empty is `{}`; a BOM is dropped. */
function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return {};
  const text = raw.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw bodyError("entity.parse.failed");
  }
  if (typeof value !== "object" || value === null) throw bodyError("entity.parse.failed");
  return value;
}

function callRequest(
  req: DirectRequest,
  path: string,
  body: Buffer,
  requestId: string,
  status: { value?: number },
): CallRequest {
  return {
    header: (name) => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    get info(): RequestInfo {
      return { ip: req.ip ?? null, userAgent: req.headers["user-agent"] ?? null };
    },
    requestId,
    get idempotencyKey() {
      return req.headers["idempotency-key"] as string | undefined;
    },
    sessionId: undefined,
    setSessionCookie: () => {},
    signed: { method: "POST", path, body },
    setStatus: (value) => void (status.value = value),
  };
}

/** A request listener's front: takes the client API's plain JSON calls, hands the rest to `next`. */
export type DirectRoutes = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export function directRoutes(operations: AnyOperation[], options: DirectOptions): DirectRoutes {
  const { deps, limiter, validateResponses } = options;
  const routes = new Map<string, AnyOperation>();
  for (const op of operations) {
    // Only what needs nothing but the body: no path parameters, no query, no cookie, no file.
    if (op.method !== "post" || op.auth !== "public" || op.params || op.query || op.stream || op.attachment)
      continue;
    routes.set(options.prefix + op.path, op);
  }

  const answer = (
    res: ServerResponse,
    status: number,
    head: Array<[string, string]>,
    body: string | undefined,
  ): void => {
    const flat: string[] = [];
    for (const [name, value] of options.headers) flat.push(name, value);
    for (const [name, value] of head) flat.push(name, value);
    flat.push("Date", deps.clock.now().toUTCString());
    if (body === undefined) return void res.writeHead(status, flat).end();
    flat.push("Content-Type", "application/json; charset=utf-8");
    flat.push("Content-Length", String(Buffer.byteLength(body)));
    res.writeHead(status, flat).end(body);
  };

  async function serve(
    op: AnyOperation,
    route: string,
    req: DirectRequest,
    res: ServerResponse,
    requestId: string,
  ) {
    const head: Array<[string, string]> = [["X-Request-Id", requestId]];
    let status: number;
    let body: string | undefined;
    try {
      const counted = limiter.count(req.ip);
      const verdict = counted instanceof Promise ? await counted : counted;
      if (verdict) head.push(...verdict.headers);
      if (verdict?.refusal) {
        status = 429;
        body = JSON.stringify(verdict.refusal);
      } else {
        const raw = await readBody(req);
        const input = parsePart(op.body, parseJson(raw), "body");
        const chosen: { value?: number } = {};
        const result = await callOperation(op, {
          deps,
          actor: null,
          input: { ...input },
          request: callRequest(req, route, raw, requestId, chosen),
        });
        if (op.response) {
          status = chosen.value ?? op.status ?? 200;
          body = JSON.stringify(validateResponses ? op.response.parse(result) : result);
        } else {
          status = 204;
        }
      }
    } catch (error) {
      const { body: refusal, unexpected } = toErrorResponse(error);
      if (unexpected)
        deps.logger.error(
          { err: error, method: "POST", url: loggableUrl(req.url ?? "") },
          "unexpected error",
        );
      else if (refusal.status === 503) deps.logger.warn({ err: error }, "database unavailable");
      const retryAfter = retryAfterSeconds(error);
      if (retryAfter > 0) head.push(["Retry-After", String(retryAfter)]);
      status = refusal.status;
      body = JSON.stringify(refusal);
    }
    if (res.headersSent || res.destroyed) return status;
    answer(res, status, head, body);
    return status;
  }

  return (incoming, res, next) => {
    if (incoming.method !== "POST") return next();
    const url = incoming.url ?? "";
    const query = url.indexOf("?");
    const op = routes.get(query < 0 ? url : url.slice(0, query));
    if (!op || !isPlainJson(incoming.headers)) return next();
    const req = incoming as DirectRequest;
    req.ip = proxyAddr(req, options.trustProxy);
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom(req.headers["x-request-id"] as string | undefined);
    const route = options.prefix + op.path;
    void withRequestId(requestId, () =>
      serve(op, route, req, res, requestId).then(
        (status) => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          deps.metrics.request("POST", route, status, ms / 1000);
          logFinished(deps.logger, { method: "POST", url, status, ms });
        },
        (error: unknown) => {
          deps.logger.error({ err: error, url: loggableUrl(url) }, "unexpected error");
          res.destroy();
        },
      ),
    );
  };
}
