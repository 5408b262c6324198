import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import helmet, { contentSecurityPolicy } from "helmet";

/**
 * The HTTP security headers (decision 0038). Every response carries them; two pages widen one directive:
 * the admin app's page lets in the `<style>` tags Mantine writes, by a per-response nonce, and the API
 * documentation lets in Swagger UI's inline styles.
 */

/** What the admin build (vite `html.cspNonce`) writes where the page's nonce goes. */
export const CSP_NONCE_PLACEHOLDER = "__CSP_NONCE__";

// Only this origin, no inline script or event handler anywhere, no plugin, no <base>, and no page of ours
// inside a frame: an operator cannot be tricked into clicking Revoke through an invisible frame.
const directives = {
  defaultSrc: ["'self'"],
  baseUri: ["'none'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", "data:"],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
};

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** helmet with the service's policy; HSTS only when the service is reached over https. */
export function securityHeaders(publicBaseUrl: string): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    crossOriginOpenerPolicy: { policy: "same-origin" },
    crossOriginResourcePolicy: { policy: "same-origin" },
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: publicBaseUrl.startsWith("https://")
      ? { maxAge: YEAR_SECONDS, includeSubDomains: true }
      : false,
    xFrameOptions: { action: "deny" },
  });
}

/**
 * The headers `securityHeaders` sets on an API answer, taken once from helmet itself: the client API's
 * direct routes (operation/direct.ts) write them without running it per request.
 */
export function securityHeaderList(publicBaseUrl: string): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const collector = {
    setHeader: (name: string, value: unknown) => void headers.push([name, String(value)]),
    removeHeader: () => {},
  };
  securityHeaders(publicBaseUrl)({} as Request, collector as unknown as Response, () => {});
  return headers;
}

/**
 * API answers are never stored by a browser or a proxy: most carry a secret (license keys and tokens,
 * a `.lic` file, an access token or TOTP secret shown once), and a list of the ones that do would rot.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader("Cache-Control", "no-store");
  next();
};

const nonceOf = (_req: IncomingMessage, res: ServerResponse) =>
  `'nonce-${(res as Response).locals.cspNonce as string}'`;
const pagePolicy = contentSecurityPolicy({
  useDefaults: false,
  directives: { ...directives, styleSrc: ["'self'", nonceOf] },
});

/**
 * For the admin app's page: a fresh nonce in `res.locals.cspNonce` (the page puts it where the build left
 * `CSP_NONCE_PLACEHOLDER`) and a policy that accepts `<style>` tags carrying it (Mantine's theme variables
 * and responsive styles) and no other inline style. Scripts stay `'self'` only.
 */
export const adminPagePolicy: RequestHandler = (req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  pagePolicy(req, res, next);
};

/**
 * For Swagger UI at /api/docs: its page has fixed inline `<style>` blocks and a `style` attribute, so
 * styles there may be inline; its scripts are files (swagger-ui-express serves its init script as
 * `swagger-ui-init.js`), so `script-src` stays `'self'`.
 */
export const apiDocsPolicy: RequestHandler = contentSecurityPolicy({
  useDefaults: false,
  directives: { ...directives, styleSrc: ["'self'", "'unsafe-inline'"] },
});
