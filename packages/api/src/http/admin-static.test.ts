import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/index.ts";
import { CSP_NONCE_PLACEHOLDER } from "./security-headers.ts";

const HTML = { accept: "text/html,application/xhtml+xml" };
let dir: string;
let app: TestApp;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "admin-dist-"));
  mkdirSync(join(dir, "assets"));
  // As vite writes it with `html.cspNonce`: the placeholder where each response's nonce goes.
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><title>admin</title><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}">` +
      `<script type="module" src="/assets/index-abc123.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script>`,
  );
  writeFileSync(join(dir, "assets", "index-abc123.js"), "console.log('app')");
  app = await startTestApp({ adminDir: dir });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the admin app at /", () => {
  it("serves index.html at / and for deep links, never stored", async () => {
    const client = await app.client();
    for (const path of [
      "/",
      "/licenses/3f1c8a8e-0000-4000-8000-000000000000",
      "/companies?x=1",
      "/index.html",
    ]) {
      const res = await client.get(path, HTML);
      expect(res.status, path).toBe(200);
      expect(res.text).toContain("<title>admin</title>");
      expect(res.headers.get("content-type")).toMatch(/^text\/html/);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("gives each page load a fresh nonce, in the page and in its policy's style-src only", async () => {
    const client = await app.client();
    const nonces = new Set<string>();
    for (const path of ["/", "/", "/licenses", "/index.html"]) {
      const res = await client.get(path, HTML);
      expect(res.text).not.toContain(CSP_NONCE_PLACEHOLDER);
      const nonce = /<meta property="csp-nonce" nonce="([^"]+)">/.exec(res.text)![1]!;
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(res.text.split(`nonce="${nonce}"`)).toHaveLength(3);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain(`style-src 'self' 'nonce-${nonce}'`);
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(4);
    // Anything else keeps the policy without a nonce.
    const asset = await client.get("/assets/index-abc123.js");
    expect(asset.headers.get("content-security-policy")).toMatch(/style-src 'self'(;|$)/);
  });

  it("serves hashed assets for a year, and 404s a missing one instead of the page", async () => {
    const client = await app.client();
    const asset = await client.get("/assets/index-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await client.get("/assets/gone.js", HTML)).status).toBe(404);
  });

  it("never shadows the APIs or the probes, even for a browser asking for HTML", async () => {
    const client = await app.client();
    for (const path of ["/api/v1/nope", "/api/v1/panel/nope", "/trpc/nope.nope", "/api", "/trpc"]) {
      const res = await client.get(path, HTML);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain("<title>admin</title>");
    }
    const health = await client.get("/healthz", HTML);
    expect(health.body).toEqual({ status: "ok" });
    const me = await client.api.auth.me({ headers: HTML });
    expect(me.error).toMatchObject({ code: "auth.unauthenticated", status: 401 });
  });

  it("answers a browser's request for a path outside the app's pages with the 404, not the app", async () => {
    const client = await app.client();
    for (const path of ["/metrics2", "/foo.php", "/.env", "/wp-login.php", "/licensesx", "/api/v1/x/y"]) {
      const res = await client.get(path, HTML);
      expect(res.status, path).toBe(404);
      expect(res.error, path).toMatchObject({ code: "route.not_found", status: 404 });
    }
    for (const path of ["/sign-in", "/accept-invite?token=x", "/webhooks/abc", "/licenses/new", "/audit/"]) {
      expect((await client.get(path, HTML)).status, path).toBe(200);
    }
  });

  it("answers a non-HTML request for an unknown path with the API's 404", async () => {
    const client = await app.client();
    const res = await client.get("/elsewhere", { accept: "application/json" });
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({ code: "route.not_found" });
  });
});
