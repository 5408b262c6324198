import {
  fail,
  resolveApiToken,
  resolveSession,
  type Actor,
  type Deps,
  type RequestInfo,
} from "@licensing/core";
import type { Request, Response } from "express";
import { requestInfo } from "./request-info.ts";
import { readSessionCookie, setSessionCookie, type CookieSettings } from "./session-cookie.ts";

/** What identifies a caller, whatever the transport. */
export interface Credentials {
  /** The Authorization header. */
  authorization: string | undefined;
  /** The session cookie's value. */
  sessionId: string | undefined;
  request: RequestInfo;
}

/**
 * Who is calling: a bearer personal access token, or else the session cookie (which slides forward and is
 * sent again through `renewSession`). REST and tRPC both use this. A bearer that does not resolve is a
 * 401, never a fallback.
 */
export async function resolveCaller(
  deps: Deps,
  credentials: Credentials,
  renewSession: (sessionId: string) => void,
): Promise<Actor | null> {
  const { authorization, sessionId } = credentials;
  if (authorization) {
    const [scheme, token] = authorization.split(" ", 2);
    if (scheme?.toLowerCase() !== "bearer" || !token) {
      return fail("auth.invalid_token", "The Authorization header must be `Bearer svc_pat_…`");
    }
    return resolveApiToken(deps, token.trim(), credentials.request);
  }
  if (!sessionId) return null;
  const session = await resolveSession(deps, sessionId, credentials.request);
  if (!session) return null;
  if (session.slid) renewSession(sessionId);
  return session.actor;
}

/** `resolveCaller` for an Express request. */
export const resolveActor = (deps: Deps, req: Request, res: Response, cookies: CookieSettings) =>
  resolveCaller(
    deps,
    { authorization: req.get("authorization"), sessionId: readSessionCookie(req), request: requestInfo(req) },
    (sessionId) => setSessionCookie(res, sessionId, cookies),
  );

/** True when the request authenticates with a bearer token (and not with the cookie). */
export const usesBearer = (req: Request) => Boolean(req.get("authorization"));
