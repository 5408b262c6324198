import { fail, resolveApiToken, resolveSession, type Actor, type Deps } from "@licensing/core";
import type { Request, Response } from "express";
import { requestInfo } from "./request-info.ts";
import { readSessionCookie, setSessionCookie, type CookieSettings } from "./session-cookie.ts";

/**
 * Who is calling: a bearer personal access token, or else the session cookie (which slides forward and is
 * sent again). REST and tRPC both use this. A bearer that does not resolve is a 401, never a fallback.
 */
export async function resolveActor(
  deps: Deps,
  req: Request,
  res: Response,
  cookies: CookieSettings,
): Promise<Actor | null> {
  const authorization = req.get("authorization");
  if (authorization) {
    const [scheme, credentials] = authorization.split(" ", 2);
    if (scheme?.toLowerCase() !== "bearer" || !credentials) {
      return fail("auth.invalid_token", "The Authorization header must be `Bearer svc_pat_…`");
    }
    return resolveApiToken(deps, credentials.trim(), requestInfo(req));
  }
  const sessionId = readSessionCookie(req);
  if (!sessionId) return null;
  const session = await resolveSession(deps, sessionId, requestInfo(req));
  if (!session) return null;
  if (session.slid) setSessionCookie(res, sessionId, cookies);
  return session.actor;
}

/** True when the request authenticates with a bearer token (and not with the cookie). */
export const usesBearer = (req: Request) => Boolean(req.get("authorization"));
