import { AppError } from "@licensing/core";
import type { RequestHandler } from "express";
import { usesBearer } from "./actor.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another origin: a cookie would authenticate
 * them (CSRF). Calls with a bearer token carry no ambient credential and pass; so do clients that send
 * neither `Origin` nor `Sec-Fetch-Site` (curl, SDKs).
 */
export function originGuard(publicBaseUrl: string): RequestHandler {
  const trusted = new URL(publicBaseUrl).origin;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || usesBearer(req)) return next();
    const fetchSite = req.get("sec-fetch-site");
    const origin = req.get("origin");
    const sameHost = origin !== undefined && origin === `${req.protocol}://${req.get("host")}`;
    const crossSite = fetchSite === "cross-site" || fetchSite === "same-site";
    if (crossSite || (origin !== undefined && origin !== trusted && !sameHost)) {
      return next(
        new AppError("auth.cross_origin", "Cross-origin requests may not change state with a session cookie"),
      );
    }
    next();
  };
}
