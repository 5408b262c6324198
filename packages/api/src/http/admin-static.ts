import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import express, { type RequestHandler, type Router } from "express";
import { adminPagePolicy, CSP_NONCE_PLACEHOLDER } from "./security-headers.ts";

/** Paths the page must never answer: the APIs and the probes keep their own 404s, and so do assets. */
const NOT_PAGES = /^\/(api|trpc|healthz|readyz|assets)(\/|$)/;

/**
 * The admin app's static build: hashed assets cached for a year, and `index.html` (never stored: it
 * carries this response's CSP nonce) for any other GET that asks for a page, so deep links such as
 * `/licenses/<id>` load the app.
 */
export function adminStatic(dir: string): Router | RequestHandler {
  const index = join(dir, "index.html");
  if (!existsSync(index)) {
    return (_req, _res, next) => next();
  }
  const page: RequestHandler = async (_req, res) => {
    const html = await readFile(index, "utf8");
    res.setHeader("Cache-Control", "no-store");
    res.type("html").send(html.replaceAll(CSP_NONCE_PLACEHOLDER, res.locals.cspNonce as string));
  };
  const router = express.Router();
  router.use("/assets", express.static(join(dir, "assets"), { immutable: true, maxAge: "365d" }));
  // Never the file as built: its nonce is a placeholder.
  router.get("/index.html", adminPagePolicy, page);
  router.use(express.static(dir, { index: false, maxAge: 0 }));
  router.get(
    /.*/,
    (req, _res, next) => next(NOT_PAGES.test(req.path) || !req.accepts("html") ? "route" : undefined),
    adminPagePolicy,
    page,
  );
  return router;
}
