import type { Deps } from "@licensing/core";
import { createCaller } from "../trpc/app-router.ts";
import { SESSION_COOKIE } from "../http/session-cookie.ts";

/**
 * Procedures called in-process, without HTTP, as one browser would: the session cookie a procedure sets
 * is kept and sent with the next call.
 */
export function trpcCaller(deps: Deps, options: { bearer?: string; userAgent?: string } = {}) {
  const jar: { sessionId: string | null } = { sessionId: null };
  const headers = () => {
    const headers = new Headers({ "user-agent": options.userAgent ?? "trpc-caller-test" });
    if (options.bearer) headers.set("authorization", `Bearer ${options.bearer}`);
    if (jar.sessionId) headers.set("cookie", `${SESSION_COOKIE}=${jar.sessionId}`);
    return headers;
  };
  // A caller per call, so each sees the cookie as it is then.
  const call = () =>
    createCaller({
      deps,
      headers: headers(),
      ip: "127.0.0.1",
      setSessionCookie: (sessionId) => void (jar.sessionId = sessionId),
    });
  return { call, jar };
}
