import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { DAY, MINUTE } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, MEMBER_PASSWORD } from "../testing/fixtures.ts";
import { OPERATOR, startTestApp, type TestApp } from "../testing/index.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: 1 });
});
afterAll(() => app.close());

const LOGIN = "/api/v1/panel/auth/login";
const ME = "/api/v1/panel/auth/me";

const createUser = (email: string) => createMember(app, { email });

describe("POST /panel/auth/login", () => {
  it("signs in, sets an HttpOnly SameSite=Lax cookie and serves /me", async () => {
    const client = await app.client();
    const res = await client.post(LOGIN, OPERATOR);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      twoFactorRequired: false,
      ticket: null,
      user: { email: OPERATOR.email, isOperator: true },
    });
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^service\.auth=[\w-]{40,};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Max-Age=604800");
    expect(cookie).not.toContain("Secure");
    const me = await client.get(ME);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: expect.any(String),
      email: OPERATOR.email,
      displayName: "Bootstrap operator",
      isOperator: true,
      totpEnabled: false,
      companyId: null,
      role: null,
    });
  });

  it("matches the email case-insensitively", async () => {
    const client = await app.client();
    const res = await client.post(LOGIN, { ...OPERATOR, email: OPERATOR.email.toUpperCase() });
    expect(res.status).toBe(200);
  });

  it("refuses a wrong password and an unknown email with the same 401", async () => {
    const client = await app.client();
    const wrong = await client.post(LOGIN, { ...OPERATOR, password: "not-the-password" });
    const unknown = await client.post(LOGIN, { email: "nobody@example.com", password: "whatever1" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      code: "auth.invalid_credentials",
      message: expect.any(String),
      status: 401,
    });
    expect(unknown.body).toEqual(wrong.body);
    expect(client.cookie).toBeUndefined();
  });

  it("names the offending field of a malformed body", async () => {
    const client = await app.client();
    const res = await client.post(LOGIN, { email: "not-an-email", password: 5 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("request.invalid");
    expect(res.body.message).toContain("body.email");
    expect(res.body.message).toContain("body.password");
    const long = await client.post(LOGIN, { email: "a@example.com", password: "x".repeat(257) });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/^body\.password: /);
  });

  it("gives a new session id at every login and stores only its hash", async () => {
    const a = await app.client({ signIn: true });
    const b = await app.client({ signIn: true });
    expect(a.cookie).not.toEqual(b.cookie);
    const stored = await app.deps.db.select({ idHash: tables.sessions.idHash }).from(tables.sessions);
    const hashes = stored.map((s) => s.idHash);
    expect(hashes).not.toContain(a.cookie);
    expect(hashes).toHaveLength(new Set(hashes).size);
  });

  it("locks the account after 10 failures in 15 minutes, whatever the IP, then lets it in again", async () => {
    await createUser("locked@example.com");
    const client = await app.client();
    for (let i = 0; i < 10; i++) {
      const res = await client.post(
        LOGIN,
        { email: "locked@example.com", password: "wrong-password" },
        { "x-forwarded-for": `203.0.113.${i}` },
      );
      expect(res.status).toBe(401);
    }
    const blocked = await client.post(
      LOGIN,
      { email: "locked@example.com", password: MEMBER_PASSWORD },
      { "x-forwarded-for": "198.51.100.7" },
    );
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      code: "auth.too_many_attempts",
      message: expect.any(String),
      status: 429,
    });
    expect(client.cookie).toBeUndefined();

    app.clock.advance(15 * MINUTE + 1000);
    const again = await client.post(LOGIN, { email: "locked@example.com", password: MEMBER_PASSWORD });
    expect(again.status).toBe(200);
  });
});

describe("sessions", () => {
  it("slide: a session used within 7 days keeps living, an idle one expires", async () => {
    const active = await app.client({ signIn: true });
    const idle = await app.client({ signIn: true });
    for (let i = 0; i < 3; i++) {
      app.clock.advance(5 * DAY);
      const res = await active.get(ME);
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toContain("Max-Age=604800");
    }
    // 15 days after sign-in: the active one slid forward, the idle one passed its 7 days.
    const expired = await idle.get(ME);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe("auth.unauthenticated");
  });

  it("logout ends the session on the server, not only in the browser", async () => {
    const client = await app.client({ signIn: true });
    const stolen = client.cookie;
    const out = await client.post("/api/v1/panel/auth/logout");
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/service\.auth=;.*Expires=Thu, 01 Jan 1970/);
    client.cookie = stolen;
    expect((await client.get(ME)).status).toBe(401);
  });

  it("ends when the account is revoked", async () => {
    const { client } = await createUser("leaver@example.com");
    await app.deps.db
      .update(tables.users)
      .set({ status: "revoked" })
      .where(eq(tables.users.email, "leaver@example.com"));
    expect((await client.get(ME)).status).toBe(401);
  });

  it("rejects a made-up cookie", async () => {
    const client = await app.client();
    client.cookie = "forged-session-id";
    expect((await client.get(ME)).status).toBe(401);
  });
});

describe("cookie over https", () => {
  it("is Secure when PUBLIC_BASE_URL is https", async () => {
    const secureApp = await startTestApp({ publicBaseUrl: "https://licensing.example.com" });
    try {
      const client = await secureApp.client();
      const res = await client.post(LOGIN, OPERATOR);
      expect(res.headers.get("set-cookie")).toContain("Secure");
    } finally {
      await secureApp.close();
    }
  });
});
