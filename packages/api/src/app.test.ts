import { createHash, randomBytes } from "node:crypto";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pino } from "pino";
import { requestLogMixin } from "./http/logging.ts";
import { OPERATOR, startTestApp, type TestApp } from "./testing/index.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const LOGIN = "/api/v1/panel/auth/login";

function expectErrorBody(body: unknown, code: string, status: number) {
  expect(body).toEqual({ code, message: expect.any(String), status });
  expect((body as { message: string }).message).not.toMatch(/\n\s+at /);
}

describe("error model", () => {
  it("answers an unknown route with 404 in the error shape", async () => {
    const client = await app.client();
    for (const path of ["/api/v1/nope", "/api/v1/panel/nope", "/elsewhere"]) {
      const res = await client.get(path);
      expect(res.status).toBe(404);
      expectErrorBody(res.error, "route.not_found", 404);
    }
  });

  it("answers malformed JSON with 400", async () => {
    const client = await app.client();
    const res = await client.request("POST", LOGIN, '{"email": "a@example.com",');
    expect(res.status).toBe(400);
    expectErrorBody(res.error, "request.malformed_json", 400);
  });

  it("answers a body over 1 MiB with 413", async () => {
    const client = await app.client();
    const res = await client.post(LOGIN, { email: "a@example.com", password: "x".repeat(1024 * 1024) });
    expect(res.status).toBe(413);
    expectErrorBody(res.error, "request.too_large", 413);
  });

  it("answers a missing body and a wrong type with a 400 naming the field", async () => {
    const client = await app.client();
    const missing = await client.request("POST", LOGIN);
    expectErrorBody(missing.error, "request.invalid", 400);
    expect(missing.error.message).toMatch(/^body: /);
    const wrongType = await client.post(LOGIN, { email: ["a@example.com"], password: "12345678" });
    expect(wrongType.error.message).toMatch(/^body\.email: /);
  });

  it("answers an unexpected failure with a generic 500 and no stack trace", async () => {
    const broken = await startTestApp();
    const client = await broken.client({ signIn: true });
    await broken.database.close();
    const res = await client.api.auth.me();
    expect(res.status).toBe(500);
    expect(res.error).toEqual({
      code: "internal",
      message: "An unexpected error occurred; it has been logged",
      status: 500,
    });
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
    const ready = await client.get("/readyz");
    expect(ready.status).toBe(503);
    await broken.close().catch(() => {});
  });
});

describe("health and request ids", () => {
  it("serves /healthz and /readyz", async () => {
    const client = await app.client();
    expect((await client.get("/healthz")).body).toEqual({ status: "ok" });
    expect((await client.get("/readyz")).body).toEqual({ status: "ready" });
  });

  it("echoes a well-formed X-Request-Id and makes one up otherwise", async () => {
    const client = await app.client();
    const echoed = await client.get("/healthz", { "x-request-id": "trace-123" });
    expect(echoed.headers.get("x-request-id")).toBe("trace-123");
    const generated = await client.get("/healthz", { "x-request-id": "bad id with spaces" });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("cross-origin protection", () => {
  it("refuses a cookie-authenticated mutation from another origin", async () => {
    const client = await app.client({ signIn: true });
    const evil = await client.api.auth.twoFactor.enroll({ headers: { origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expectErrorBody(evil.error, "auth.cross_origin", 403);
    const fetchSite = await client.api.auth.twoFactor.enroll({ headers: { "sec-fetch-site": "cross-site" } });
    expect(fetchSite.status).toBe(403);
    // The guard answers in front of tRPC, so the HTTP status is the subject: a raw request.
    const trpc = await client.request(
      "POST",
      "/trpc/operator.users.invite",
      { json: { email: "x@example.com" } },
      {
        origin: "https://evil.example",
      },
    );
    expect(trpc.status).toBe(403);
  });

  it("lets the same origin through, and reads without an origin check", async () => {
    const client = await app.client({ signIn: true });
    const same = await client.api.auth.logout({
      headers: { origin: app.url, "sec-fetch-site": "same-origin" },
    });
    expect(same.status).toBe(204);
    const read = await client.get("/healthz", { origin: "https://evil.example" });
    expect(read.status).toBe(200);
  });

  it("does not apply to bearer-token calls", async () => {
    const secret = `svc_pat_${randomBytes(32).toString("base64url")}`;
    const [company] = await app.deps.db
      .insert(tables.companies)
      .values({ name: "Acme", slug: "acme", path: "/x/", depth: 0, createdAt: app.clock.now() })
      .returning();
    const [operator] = await app.deps.db
      .select()
      .from(tables.users)
      .where(eq(tables.users.email, OPERATOR.email));
    await app.deps.db.insert(tables.apiTokens).values({
      name: "ci",
      companyId: company!.id,
      rootUserId: operator!.id,
      prefix: secret.slice(0, 12),
      secretHash: createHash("sha256").update(secret).digest("hex"),
      createdAt: app.clock.now(),
    });
    const client = await app.client();
    const res = await client.api.auth.logout({
      headers: { authorization: `Bearer ${secret}`, origin: "https://evil.example" },
    });
    expect(res.status).toBe(204);
    const me = await client.api.auth.me({ headers: { authorization: `Bearer ${secret}` } });
    expect(me.body).toMatchObject({ companyId: company!.id, role: "admin", isOperator: false });
  });
});

describe("rate limits", () => {
  it("answers the 21st auth call in a minute with 429 and the standard headers", async () => {
    const limited = await startTestApp({ rateLimits: { auth: 20, panel: 1000 } });
    try {
      const client = await limited.client();
      for (let i = 0; i < 20; i++) {
        // A different address each time, so the sign-in throttle (10 per address) stays out of it.
        const ok = await client.api.auth.login({
          body: { email: `nobody-${i}@example.com`, password: "wrong-password" },
        });
        expect(ok.status).toBe(401);
        expect(ok.headers.get("ratelimit-limit")).toBe("20");
        expect(ok.headers.get("ratelimit-remaining")).toBe(String(19 - i));
      }
      const res = await client.api.auth.login({ body: OPERATOR });
      expect(res.status).toBe(429);
      expectErrorBody(res.error, "rate_limit.exceeded", 429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect(res.headers.get("ratelimit-limit")).toBe("20");
      expect(res.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(res.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
      // Other contours count separately.
      expect((await client.api.operator.users.list()).status).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it("counts a path the auth routes answer against the auth contour, however it is spelt", async () => {
    const limited = await startTestApp({ rateLimits: { auth: 4, panel: 1000 } });
    try {
      const client = await limited.client();
      const spellings = [
        "/api/v1/panel/auth/login",
        "/api/v1/panel/Auth/login",
        "/api/v1/panel/AUTH/LOGIN/",
        "/API/V1/PANEL/auth/Login",
      ];
      for (const [i, path] of spellings.entries()) {
        const res = await client.post(path, { email: `spelt-${i}@example.com`, password: "wrong-password" });
        expect([path, res.status]).toEqual([path, 401]);
        expect(res.headers.get("ratelimit-limit")).toBe("4");
        expect(res.headers.get("ratelimit-remaining")).toBe(String(3 - i));
      }
      const refused = await client.post("/api/v1/panel/Auth/login", OPERATOR);
      expect(refused.status).toBe(429);
      expectErrorBody(refused.error, "rate_limit.exceeded", 429);
      // A path that only starts like it is the panel's.
      const other = await client.get("/api/v1/panel/authx");
      expect(other.headers.get("ratelimit-limit")).toBe("1000");
    } finally {
      await limited.close();
    }
  });

  it("limits the client API on its own count", async () => {
    const limited = await startTestApp({ rateLimits: { client: 3, panel: 1000 } });
    try {
      const client = await limited.client();
      const activate = () => client.api.client.activate({ body: { licenseKey: "SVC-NONE-NONE-NONE" } });
      for (let i = 0; i < 3; i++) expect((await activate()).status).toBe(404);
      const res = await activate();
      expectErrorBody(res.error, "rate_limit.exceeded", 429);
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      expect((await client.api.operator.users.list()).status).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe("request logs", () => {
  it("write one line per request with its reqId, at a level that follows the outcome", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino(
      { level: "debug", mixin: requestLogMixin },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const logged = await startTestApp({ logger });
    try {
      const client = await logged.client();
      const ok = await client.get("/healthz", { "x-request-id": "trace-ok" });
      const bad = await client.api.client.activate({
        body: { licenseKey: "SVC-00000-00000-00000-00000-00000" },
      });
      const requestLines = lines.filter((l) => l.msg === "request");
      expect(requestLines.find((l) => l.reqId === "trace-ok")).toMatchObject({
        level: 30,
        url: "/healthz",
        status: 200,
      });
      expect(requestLines.find((l) => l.reqId === bad.headers.get("x-request-id"))).toMatchObject({
        level: 40,
        url: "/api/v1/client/activate",
        status: 404,
      });
      expect(ok.status).toBe(200);
      // Every line written while handling a request carries that request's id.
      expect(lines.filter((l) => l.msg === "request").every((l) => typeof l.reqId === "string")).toBe(true);
    } finally {
      await logged.close();
    }
  });
});
