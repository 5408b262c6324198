import type { Deps } from "@licensing/core";
import type { TRPCRequestInfo } from "@trpc/server/http";
import type { Request, Response } from "express";
import { currentRequestId } from "../http/logging.ts";
import { clearSessionCookie, setSessionCookie, type CookieSettings } from "../http/session-cookie.ts";

/**
 * What a procedure gets: the request's headers and a cookie setter, no framework objects, so
 * `appRouter.createCaller(context)` runs a procedure without HTTP and another adapter costs one function.
 */
export interface TrpcContext {
  deps: Deps;
  /** The request headers (Authorization, Cookie, User-Agent). */
  headers: Headers;
  /** The caller's address as the transport determined it (trust proxy applied); null when unknown. */
  ip: string | null;
  /** Sets the session cookie on the response, or clears it (null). */
  setSessionCookie(sessionId: string | null): void;
  /** The HTTP request's id, when there is one. */
  requestId?: string | undefined;
  /** How many procedure calls the HTTP request carries (a batch holds several); 1 when absent. */
  calls?: number | undefined;
}

/** The context of a call that came through Express. */
export function expressContext(
  deps: Deps,
  cookies: CookieSettings,
  req: Request,
  res: Response,
  info: TRPCRequestInfo,
): TrpcContext {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return {
    deps,
    headers,
    ip: req.ip ?? null,
    requestId: currentRequestId(),
    calls: info.calls.length,
    setSessionCookie: (sessionId) =>
      sessionId ? setSessionCookie(res, sessionId, cookies) : clearSessionCookie(res, cookies),
  };
}
