import { TRPC_MAX_BATCH_SIZE } from "@licensing/contracts";
import { AppError } from "@licensing/core";
import type { RequestHandler } from "express";
import type { ContourLimiter } from "../http/rate-limit.ts";

/**
 * The procedures a /trpc request names, read as tRPC's Express adapter reads them: the last segment of
 * the path, percent-decoded, split at commas. tRPC splits only when `?batch=1`; splitting always counts
 * a call at least as often as tRPC runs it. A malformed escape throws a URIError (a 400).
 */
export function trpcProcedureNames(path: string): string[] {
  return decodeURIComponent(path.slice(path.lastIndexOf("/") + 1)).split(",");
}

/**
 * Rate limits per procedure call, not per request (decision 0036): `auth.*` calls count against the auth
 * contour, the others against the panel contour, as their REST twins do. A batch of more than
 * TRPC_MAX_BATCH_SIZE calls is refused before anything runs or counts. It also names the request's route
 * for the metrics, from `procedures` (the router's).
 */
export function trpcCallLimits(
  limiters: { panel: ContourLimiter; auth: ContourLimiter },
  procedures: ReadonlySet<string> = new Set(),
): RequestHandler {
  return (req, res, next) => {
    const names = trpcProcedureNames(req.path);
    // The request metrics' route: one known procedure by name, a batch or an unknown name by kind.
    res.locals.route =
      names.length > 1 ? "/trpc/(batch)" : procedures.has(names[0]!) ? `/trpc/${names[0]}` : "/trpc/*";
    if (names.length > TRPC_MAX_BATCH_SIZE) {
      return next(
        new AppError(
          "request.batch_too_large",
          `A tRPC request may batch at most ${TRPC_MAX_BATCH_SIZE} procedure calls; this one has ${names.length}`,
        ),
      );
    }
    const authCalls = names.filter((name) => name.startsWith("auth.")).length;
    const panelCalls = names.length - authCalls;
    const chargeAuth = () => (authCalls > 0 ? limiters.auth.charge(authCalls)(req, res, next) : next());
    if (panelCalls === 0) return chargeAuth();
    // A refused request is answered by the limiter, which then calls nothing.
    return limiters.panel.charge(panelCalls)(req, res, (error?: unknown) =>
      error === undefined ? chargeAuth() : next(error),
    );
  };
}
