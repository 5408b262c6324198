import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";

const requestContext = new AsyncLocalStorage<{ requestId: string }>();

/**
 * A pino `mixin`: every line logged while a request is handled, in any package, carries its id.
 * The server passes it when it creates the logger.
 */
export const requestLogMixin = () => {
  const store = requestContext.getStore();
  return store ? { reqId: store.requestId } : {};
};

/** The id of the request being handled, if any. */
export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;

const acceptableId = /^[\w.:-]{1,128}$/;

// Path segments and query values that are credentials: an invitation token in its link, and any query
// parameter named like a secret. License keys and signed tokens are masked by the log scrubber.
const SECRET_SEGMENT = /(\/auth\/invite\/)[^/?#]+/;
const SECRET_QUERY = /([?&](?:token|key|licenseKey|secret|password|ticket|code)=)[^&#]*/gi;
// A tRPC query travels as GET with its whole input, JSON, in `?input=` (auth.invitation carries the
// invitation token there): no tRPC input is logged, only the procedure names in the path. (Express
// matches the `/trpc` mount case-insensitively, so this does too.)
const TRPC_PATH = /^\/trpc(?:[/?#]|$)/i;
const TRPC_INPUT = /([?&]input=)[^&#]*/gi;

/** The request URL as it may be logged. */
export function loggableUrl(url: string) {
  const out = url.replace(SECRET_SEGMENT, "$1[redacted]").replace(SECRET_QUERY, "$1[redacted]");
  return TRPC_PATH.test(url) ? out.replace(TRPC_INPUT, "$1[redacted]") : out;
}

/** The id a request is known by: the caller's `X-Request-Id` when well-formed, else a new one. */
export const requestIdFrom = (incoming: string | undefined): string =>
  incoming && acceptableId.test(incoming) ? incoming : randomUUID();

/** Runs `handle` with the request's id in the logging context (`requestLogMixin`, `currentRequestId`). */
export const withRequestId = <T>(requestId: string, handle: () => T): T =>
  requestContext.run({ requestId }, handle);

/**
 * Logs a finished request. Successful client-API calls (the desktop fleet's activations and heartbeats,
 * most of the traffic) log at debug: an info line for each cost about a sixth of heartbeat throughput.
 * Their failures still log at warn; a 503 is a known condition (the database is down), logged with its
 * cause as a warning where it happened.
 */
export function logFinished(
  logger: Logger,
  request: { method: string; url: string; status: number; ms: number },
): void {
  const { status } = request;
  const level =
    status >= 500 && status !== 503
      ? "error"
      : status >= 400
        ? "warn"
        : request.url.startsWith("/api/v1/client/")
          ? "debug"
          : "info";
  if (!logger.isLevelEnabled(level)) return;
  logger[level](
    {
      method: request.method,
      url: loggableUrl(request.url),
      status,
      ms: Math.round(request.ms * 10) / 10,
    },
    "request",
  );
}

/**
 * Gives every request an id (`requestIdFrom`), echoes it and logs the outcome (`logFinished`).
 * `observe` gets every finished request with its duration in seconds (the request metrics).
 */
export function requestLogging(
  logger: Logger,
  observe?: (req: Request, res: Response, seconds: number) => void,
): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdFrom(req.get("x-request-id"));
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    withRequestId(requestId, () => {
      res.on("finish", () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        observe?.(req, res, ms / 1000);
        logFinished(logger, { method: req.method, url: req.originalUrl, status: res.statusCode, ms });
      });
      next();
    });
  };
}
