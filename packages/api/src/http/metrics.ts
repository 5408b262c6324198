import { timingSafeEqual, createHash } from "node:crypto";
import { AppError, type Metrics } from "@licensing/core";
import type { Request, RequestHandler, Response } from "express";

// Requests no route took (404s, and the ones a rate limit or guard answered first) are labelled by their
// contour, so the label set stays bounded whatever paths arrive.
const CONTOURS: Array<[string, string]> = [
  ["/api/v1/client/", "/api/v1/client/*"],
  ["/api/v1/panel/", "/api/v1/panel/*"],
  ["/trpc", "/trpc/*"],
  ["/assets/", "/assets/*"],
];

/**
 * The route a finished request took, as its template (`/api/v1/panel/licenses/:id`), never the raw path:
 * what the handler recorded in `res.locals.route` (operations, tRPC, the admin page), else the matched
 * route of the app itself (`/healthz`), else the contour of its path, else `(unmatched)`.
 */
export function routeLabel(req: Request, res: Response): string {
  const explicit = res.locals.route as string | undefined;
  if (explicit) return explicit;
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === "string" && req.baseUrl === "") return route.path;
  const url = req.originalUrl;
  for (const [prefix, label] of CONTOURS) if (url.startsWith(prefix)) return label;
  return "(unmatched)";
}

/** Records each finished request in the metrics; the request logger calls it with the duration. */
export const observeRequest =
  (metrics: Metrics) =>
  (req: Request, res: Response, seconds: number): void =>
    metrics.request(req.method, routeLabel(req, res), res.statusCode, seconds);

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * GET /metrics in the Prometheus text format (decision 0054). With `token` (METRICS_TOKEN), only
 * `Authorization: Bearer <token>` is answered; otherwise 401 in the error shape.
 */
export function metricsEndpoint(metrics: Metrics, token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return async (req, res, next) => {
    try {
      if (expected) {
        const given = /^Bearer (.+)$/.exec(req.get("authorization") ?? "")?.[1];
        if (!given || !timingSafeEqual(digest(given), expected)) {
          res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
          throw new AppError(
            "auth.unauthenticated",
            "Send the metrics token: Authorization: Bearer <METRICS_TOKEN>",
          );
        }
      }
      const body = await metrics.registry.metrics();
      res.setHeader("Cache-Control", "no-store");
      res.type(metrics.registry.contentType).send(body);
    } catch (error) {
      next(error);
    }
  };
}
