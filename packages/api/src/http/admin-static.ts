import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ADMIN_PAGE_ROOTS } from "@licensing/contracts";
import express, { type RequestHandler, type Router } from "express";
import { adminPagePolicy, CSP_NONCE_PLACEHOLDER } from "./security-headers.ts";

const PAGE_ROOTS = new Set(ADMIN_PAGE_ROOTS);
/**
 * Whether `path` is under one of the app's pages (decision 0054): only those load the app. Anything else
 * (the APIs, the probes, `/metrics2`, `/.env`, `/wp-login.php`) keeps the server's 404, so a probe or a
 * scanner never mistakes the app for an answer.
 */
const isPage = (path: string) => PAGE_ROOTS.has(path.split("/", 2)[1]!);

/** The route label of a page load in the request metrics. */
export const ADMIN_PAGE_ROUTE = "(admin page)";

/**
 * The admin app's static build: hashed assets cached for a year, and `index.html` (never stored: it
 * carries this response's CSP nonce) for a GET under one of the app's pages that asks for HTML, so deep
 * links such as `/licenses/<id>` load the app.
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
    (req, res, next) => {
      if (!isPage(req.path) || !req.accepts("html")) return next("route");
      res.locals.route = ADMIN_PAGE_ROUTE;
      next();
    },
    adminPagePolicy,
    page,
  );
  return router;
}
