import { existsSync } from "node:fs";
import { join } from "node:path";
import express, { type RequestHandler, type Router } from "express";

/** Paths the page must never answer: the APIs and the probes keep their own 404s, and so do assets. */
const NOT_PAGES = /^\/(api|trpc|healthz|readyz|assets)(\/|$)/;

/**
 * The admin app's static build: hashed assets cached for a year, and `index.html` (never cached) for
 * any other GET that asks for a page, so deep links such as `/licenses/<id>` load the app.
 */
export function adminStatic(dir: string): Router | RequestHandler {
  const index = join(dir, "index.html");
  if (!existsSync(index)) {
    return (_req, _res, next) => next();
  }
  const router = express.Router();
  router.use("/assets", express.static(join(dir, "assets"), { immutable: true, maxAge: "365d" }));
  router.use(express.static(dir, { index: false, maxAge: 0 }));
  router.get(/.*/, (req, res, next) => {
    if (NOT_PAGES.test(req.path) || !req.accepts("html")) return next();
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index);
  });
  return router;
}
