import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { argon2, auth, createPasswordHasher, DAY, HOUR, MINUTE, type Argon2 } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, MEMBER_PASSWORD } from "../testing/fixtures.ts";
import type { operations } from "../catalogue.ts";
import {
  OPERATOR,
  startTestApp,
  type ApiResponse,
  type BodyOf,
  type TestApp,
  type TestClient,
} from "../testing/index.ts";

/** The Argon2 computations of the app's password hasher, counted (decision 0044). */
const argon2Runs = { hash: 0, verify: 0 };
const countedArgon2: Argon2 = {
  hash: (password, params) => (argon2Runs.hash++, argon2.hash(password, params)),
  verify: (storedHash, password) => (argon2Runs.verify++, argon2.verify(storedHash, password)),
};

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: 1, passwords: createPasswordHasher({}, countedArgon2) });
});
afterAll(() => app.close());

const LOGIN = "/api/v1/panel/auth/login";

const createUser = (email: string) => createMember(app, { email });

describe("POST /panel/auth/login", () => {
  it("signs in, sets an HttpOnly SameSite=Lax cookie and serves /me", async () => {
    const client = await app.client();
    const res = await client.api.auth.login({ body: OPERATOR });
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
    const me = await client.api.auth.me();
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
    const res = await client.api.auth.login({ body: { ...OPERATOR, email: OPERATOR.email.toUpperCase() } });
    expect(res.status).toBe(200);
  });

  it("refuses a wrong password and an unknown email with the same 401", async () => {
    const client = await app.client();
    const wrong = await client.api.auth.login({ body: { ...OPERATOR, password: "not-the-password" } });
    const unknown = await client.api.auth.login({
      body: { email: "nobody@example.com", password: "whatever1" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.error).toEqual({
      code: "auth.invalid_credentials",
      message: expect.any(String),
      status: 401,
    });
    expect(unknown.error).toEqual(wrong.error);
    expect(client.cookie).toBeUndefined();
  });

  // Equal work shown by counting it, not by timing it: a sign-in with an unknown email runs one Argon2
  // verification (against a stand-in hash), as one with a wrong or a right password does.
  it("runs one Argon2 verification for an unknown email, as for a known one", async () => {
    const client = await app.client();
    const argon2Work = async (email: string, password: string, status: number) => {
      const before = { ...argon2Runs };
      expect((await client.api.auth.login({ body: { email, password } })).status).toBe(status);
      return { hash: argon2Runs.hash - before.hash, verify: argon2Runs.verify - before.verify };
    };
    // The stand-in hash is made once, at the first unknown email this app sees.
    await argon2Work("first-stranger@example.com", "whatever1", 401);
    const oneVerification = { hash: 0, verify: 1 };
    expect(await argon2Work("stranger@example.com", "whatever1", 401)).toEqual(oneVerification);
    expect(await argon2Work(OPERATOR.email, "not-the-password", 401)).toEqual(oneVerification);
    expect(await argon2Work(OPERATOR.email, OPERATOR.password, 200)).toEqual(oneVerification);
  });

  it("names the offending field of a malformed body", async () => {
    const client = await app.client();
    // Bodies the schema refuses, sent as they are.
    const res = await client.post(LOGIN, { email: "not-an-email", password: 5 });
    expect(res.status).toBe(400);
    expect(res.error.code).toBe("request.invalid");
    expect(res.error.message).toContain("body.email");
    expect(res.error.message).toContain("body.password");
    const long = await client.post(LOGIN, { email: "a@example.com", password: "x".repeat(257) });
    expect(long.status).toBe(400);
    expect(long.error.message).toMatch(/^body\.password: /);
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
});

/** A sign-in attempt from the client address `ip` (the app trusts one proxy hop). */
const loginFrom = (client: TestClient, body: BodyOf<typeof operations.auth.login>, ip: string) =>
  client.api.auth.login({ body, headers: { "x-forwarded-for": ip } });
const wrong = (email: string) => ({ email, password: "wrong-password" });

/** The answers to the same attempts: what a caller can observe (status, body, Retry-After). */
async function transcript(attempts: Array<() => Promise<ApiResponse<unknown>>>) {
  const seen = [];
  for (const attempt of attempts) {
    const res = await attempt();
    seen.push({ status: res.status, body: res.json, retryAfter: res.headers.get("retry-after") });
  }
  return seen;
}

describe("sign-in throttle (decision 0036)", () => {
  it("locks one address out of an account after 10 failures in 15 minutes, not the account", async () => {
    const { email } = await createUser("pair-lock@example.com");
    const client = await app.client();
    for (let i = 0; i < 10; i++) {
      expect((await loginFrom(client, wrong(email), "203.0.113.10")).status).toBe(401);
      app.clock.advance(1000);
    }
    const locked = await loginFrom(client, { email, password: MEMBER_PASSWORD }, "203.0.113.10");
    expect(locked.status).toBe(429);
    expect(locked.error).toEqual({
      code: "auth.too_many_attempts",
      message: expect.any(String),
      status: 429,
    });
    // Until the first of the ten failures is 15 minutes old.
    expect(locked.headers.get("retry-after")).toBe(String(15 * 60 - 10));
    expect(client.cookie).toBeUndefined();

    const elsewhere = await loginFrom(client, { email, password: MEMBER_PASSWORD }, "198.51.100.7");
    expect(elsewhere.status).toBe(200);

    app.clock.advance((15 * 60 - 10) * 1000);
    const again = await loginFrom(client, { email, password: MEMBER_PASSWORD }, "203.0.113.10");
    expect(again.status).toBe(200);
  });

  it("answers an address without an account exactly as one with, 429 included", async () => {
    const { email } = await createUser("known@example.com");
    const client = await app.client();
    const run = (address: string, ip: string) =>
      transcript(Array.from({ length: 12 }, () => () => loginFrom(client, wrong(address), ip)));
    const known = await run(email, "203.0.113.20");
    const unknown = await run("unknown@example.com", "203.0.113.21");
    expect(known.map((a) => a.status)).toEqual([...Array(10).fill(401), 429, 429]);
    expect(unknown).toEqual(known);
  });

  it("checks at most 10 of 20 passwords sent at once from one address", async () => {
    const { email } = await createUser("parallel@example.com");
    const client = await app.client();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => loginFrom(client, wrong(email), "203.0.113.30")),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(10).fill(429)]);
    const right = await loginFrom(client, { email, password: MEMBER_PASSWORD }, "203.0.113.30");
    expect(right.status).toBe(429);
  });

  it("delays, never locks, an account tried from many addresses; a known address is not delayed", async () => {
    const { email } = await createUser("many-addresses@example.com");
    const client = await app.client();
    // Signed in from 192.0.2.1 before the attack: a known address.
    expect((await loginFrom(client, { email, password: MEMBER_PASSWORD }, "192.0.2.1")).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      expect((await loginFrom(client, wrong(email), `203.0.113.${100 + i}`)).status).toBe(401);
    }
    // Past 20 failures in an hour, each attempt waits 1 s after the latest failure, doubling up to 60 s.
    const waits: string[] = [];
    for (let i = 0; i < 8; i++) {
      const refused = await loginFrom(client, wrong(email), `198.51.100.${i}`);
      expect(refused.status).toBe(429);
      waits.push(refused.headers.get("retry-after")!);
      app.clock.advance(Number(refused.headers.get("retry-after")) * 1000);
      expect((await loginFrom(client, wrong(email), `198.51.100.${i}`)).status).toBe(401);
    }
    expect(waits).toEqual(["1", "2", "4", "8", "16", "32", "60", "60"]);

    const known = await loginFrom(client, { email, password: MEMBER_PASSWORD }, "192.0.2.1");
    expect(known.status).toBe(200);
    const newcomer = await loginFrom(client, { email, password: MEMBER_PASSWORD }, "192.0.2.99");
    expect(newcomer.status).toBe(429);
    app.clock.advance(Number(newcomer.headers.get("retry-after")) * 1000);
    expect((await loginFrom(client, { email, password: MEMBER_PASSWORD }, "192.0.2.99")).status).toBe(200);
  });
});

describe("the sign-in attempts purge", () => {
  const rowsOf = (email: string) =>
    app.deps.db
      .select({ succeeded: tables.loginAttempts.succeeded })
      .from(tables.loginAttempts)
      .where(eq(tables.loginAttempts.accountKey, createHash("sha256").update(email).digest("hex")));

  it("forgets failures after an hour and a known address after 30 days", async () => {
    const { email } = await createUser("purged@example.com");
    const client = await app.client();
    expect((await loginFrom(client, wrong(email), "203.0.113.200")).status).toBe(401);
    expect(await rowsOf(email)).toEqual(expect.arrayContaining([{ succeeded: true }, { succeeded: false }]));
    await auth.purgeLoginAttempts(app.deps);
    expect(await rowsOf(email)).toHaveLength(2);
    app.clock.advance(HOUR + 1000);
    await auth.purgeLoginAttempts(app.deps);
    expect(await rowsOf(email)).toEqual([{ succeeded: true }]);
    app.clock.advance(30 * DAY);
    await auth.purgeLoginAttempts(app.deps);
    expect(await rowsOf(email)).toEqual([]);
  });
});

describe("sessions", () => {
  it("slide: a session used within 7 days keeps living, an idle one expires", async () => {
    const active = await app.client({ signIn: true });
    const idle = await app.client({ signIn: true });
    for (let i = 0; i < 3; i++) {
      app.clock.advance(5 * DAY);
      const res = await active.api.auth.me();
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toContain("Max-Age=604800");
    }
    // 15 days after sign-in: the active one slid forward, the idle one passed its 7 days.
    const expired = await idle.api.auth.me();
    expect(expired.status).toBe(401);
    expect(expired.error.code).toBe("auth.unauthenticated");
  });

  it("end 30 days after sign-in however much they are used", async () => {
    const client = await app.client({ signIn: true });
    for (let day = 5; day < 30; day += 5) {
      app.clock.advance(5 * DAY);
      expect((await client.api.auth.me()).status).toBe(200);
    }
    app.clock.advance(5 * DAY - MINUTE);
    expect((await client.api.auth.me()).status).toBe(200);
    app.clock.advance(MINUTE);
    const ended = await client.api.auth.me();
    expect(ended.status).toBe(401);
    expect(ended.error.code).toBe("auth.unauthenticated");
  });

  it("take their absolute lifetime from SESSION_MAX_AGE_DAYS", async () => {
    const shortLived = await startTestApp({ sessions: { maxAgeDays: 2 } });
    try {
      const client = await shortLived.client({ signIn: true });
      for (let hours = 12; hours < 48; hours += 12) {
        shortLived.clock.advance(12 * HOUR);
        expect((await client.api.auth.me()).status).toBe(200);
      }
      shortLived.clock.advance(12 * HOUR);
      expect((await client.api.auth.me()).status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  it("logout ends the session on the server, not only in the browser", async () => {
    const client = await app.client({ signIn: true });
    const stolen = client.cookie;
    const out = await client.api.auth.logout();
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/service\.auth=;.*Expires=Thu, 01 Jan 1970/);
    client.cookie = stolen;
    expect((await client.api.auth.me()).status).toBe(401);
  });

  it("ends when the account is revoked", async () => {
    const { client } = await createUser("leaver@example.com");
    await app.deps.db
      .update(tables.users)
      .set({ status: "revoked" })
      .where(eq(tables.users.email, "leaver@example.com"));
    expect((await client.api.auth.me()).status).toBe(401);
  });

  it("rejects a made-up cookie", async () => {
    const client = await app.client();
    client.cookie = "forged-session-id";
    expect((await client.api.auth.me()).status).toBe(401);
  });
});

describe("cookie over https", () => {
  it("is Secure when PUBLIC_BASE_URL is https", async () => {
    const secureApp = await startTestApp({ publicBaseUrl: "https://licensing.example.com" });
    try {
      const client = await secureApp.client();
      const res = await client.api.auth.login({ body: OPERATOR });
      expect(res.headers.get("set-cookie")).toContain("Secure");
    } finally {
      await secureApp.close();
    }
  });
});
