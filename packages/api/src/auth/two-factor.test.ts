import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { MINUTE } from "@licensing/core";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, MEMBER_PASSWORD } from "../testing/fixtures.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A signed-in user with 2FA enabled; returns its secret and recovery codes. */
async function userWithTotp() {
  const { email, client } = await createMember(app, {});
  const password = MEMBER_PASSWORD;
  const enrolled = await client.api.auth.twoFactor.enroll();
  expect(enrolled.status).toBe(200);
  const secret = enrolled.body.secret;
  const enabled = await client.api.auth.twoFactor.enable({ body: { code: await codeFor(secret) } });
  expect(enabled.status).toBe(200);
  // The next code must come from a later time step than the one used to enable.
  app.clock.advance(30_000);
  return { email, password, secret, client, recoveryCodes: enabled.body.recoveryCodes };
}

const codeFor = (secret: string, offsetMs = 0) =>
  generate({ secret, epoch: Math.floor((app.clock.now().getTime() + offsetMs) / 1000) });

async function ticketFor(client: TestClient, email: string, password: string) {
  const res = await client.api.auth.login({ body: { email, password } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ twoFactorRequired: true, ticket: expect.any(String), user: null });
  expect(res.headers.get("set-cookie")).toBeNull();
  return res.body.ticket!;
}

describe("POST /panel/auth/2fa/enroll and /enable", () => {
  it("returns a base32 secret and an otpauth URI, then ten single-use recovery codes", async () => {
    const client = await app.client({ signIn: true });
    const enrolled = await client.api.auth.twoFactor.enroll();
    expect(enrolled.body.secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(enrolled.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);

    const wrong = await client.api.auth.twoFactor.enable({ body: { code: "000000" } });
    expect(wrong.status).toBe(400);
    expect(wrong.error.code).toBe("totp.invalid_code");

    const enabled = await client.api.auth.twoFactor.enable({
      body: { code: await codeFor(enrolled.body.secret) },
    });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.recoveryCodes).size).toBe(10);
    expect((await client.api.auth.me()).body.totpEnabled).toBe(true);

    const stored = await app.deps.db.select().from(tables.recoveryCodes);
    expect(stored.map((r) => r.codeHash)).not.toContain(enabled.body.recoveryCodes[0]);
    const [user] = await app.deps.db.select().from(tables.users).where(eq(tables.users.isOperator, true));
    expect(user!.totpSecret).not.toContain(enrolled.body.secret);

    const again = await client.api.auth.twoFactor.enroll();
    expect(again.status).toBe(409);
    expect(again.error.code).toBe("totp.already_enabled");
    // Leave the operator as it was for the other tests.
    app.clock.advance(30_000);
    const code = await codeFor(enrolled.body.secret);
    expect(
      (await client.api.auth.twoFactor.disable({ body: { password: "operator-password-1", code } })).status,
    ).toBe(204);
  });

  it("refuses enable before enroll", async () => {
    const client = await app.client({ signIn: true });
    const res = await client.api.auth.twoFactor.enable({ body: { code: "123456" } });
    expect(res.error.code).toBe("totp.not_enrolled");
  });
});

describe("turning 2FA on needs a recent sign-in (a stolen session cannot lock the owner out)", () => {
  it("refuses enrol and enable in a session signed in 10 minutes ago or more, unless the password comes", async () => {
    const { client } = await createMember(app, {});
    app.clock.advance(10 * MINUTE);
    const stale = await client.api.auth.twoFactor.enroll();
    expect(stale.status).toBe(403);
    expect(stale.error).toMatchObject({ code: "auth.reauthentication_required", status: 403 });
    expect(stale.error.message).toMatch(/^password: /);

    const wrong = await client.api.auth.twoFactor.enroll({ body: { password: "not-the-password" } });
    expect(wrong.status).toBe(400);
    expect(wrong.error.code).toBe("auth.invalid_password");

    const enrolled = await client.api.auth.twoFactor.enroll({ body: { password: MEMBER_PASSWORD } });
    expect(enrolled.status).toBe(200);
    const code = await codeFor(enrolled.body.secret);
    const refused = await client.api.auth.twoFactor.enable({ body: { code } });
    expect(refused.status).toBe(403);
    expect(refused.error.code).toBe("auth.reauthentication_required");
    const enabled = await client.api.auth.twoFactor.enable({ body: { code, password: MEMBER_PASSWORD } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.recoveryCodes).toHaveLength(10);
  });

  it("needs no password within 10 minutes of the sign-in, and counts a wrong one as a failed attempt", async () => {
    const { email, client } = await createMember(app, {});
    app.clock.advance(10 * MINUTE - 1000);
    const enrolled = await client.api.auth.twoFactor.enroll();
    expect(enrolled.status).toBe(200);

    const failures = () =>
      app.deps.db
        .select()
        .from(tables.loginAttempts)
        .where(
          and(
            eq(
              tables.loginAttempts.accountKey,
              createHash("sha256").update(email.toLowerCase()).digest("hex"),
            ),
            eq(tables.loginAttempts.succeeded, false),
          ),
        );
    const before = await failures();
    const wrong = await client.api.auth.twoFactor.enable({
      body: { code: await codeFor(enrolled.body.secret), password: "not-the-password" },
    });
    expect(wrong.error.code).toBe("auth.invalid_password");
    const after = await failures();
    expect(after.length).toBe(before.length + 1);
  });

  it("ends the user's other sessions, keeps this one, and mails the owner", async () => {
    const { email, client } = await createMember(app, {});
    const other = await app.client();
    await other.login(email, MEMBER_PASSWORD);
    expect((await other.api.auth.me()).status).toBe(200);

    const enrolled = await client.api.auth.twoFactor.enroll();
    const enabled = await client.api.auth.twoFactor.enable({
      body: { code: await codeFor(enrolled.body.secret) },
    });
    expect(enabled.status).toBe(200);
    expect((await other.api.auth.me()).status).toBe(401);
    expect((await client.api.auth.me()).body).toMatchObject({ email, totpEnabled: true });

    const mail = await app.smtp.waitFor(email);
    expect(mail.subject).toBe("Two-factor authentication was turned on");
    expect(mail.text).toContain(email);
    expect(mail.text).toMatch(/If it was not you/);
  });
});

describe("POST /panel/auth/login/2fa", () => {
  it("opens the session with a live code; the same code is refused in its time step", async () => {
    const { email, password, secret } = await userWithTotp();
    const code = await codeFor(secret);
    const first = await app.client();
    const ok = await first.api.auth.loginTwoFactor({
      body: { ticket: await ticketFor(first, email, password), code },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email, isOperator: false });
    expect((await first.api.auth.me()).status).toBe(200);

    const second = await app.client();
    const replay = await second.api.auth.loginTwoFactor({
      body: { ticket: await ticketFor(second, email, password), code },
    });
    expect(replay.status).toBe(401);
    expect(replay.error.code).toBe("auth.invalid_code");
    expect(second.cookie).toBeUndefined();
  });

  it("refuses a wrong code and keeps the ticket for a retry", async () => {
    const { email, password, secret } = await userWithTotp();
    const client = await app.client();
    const ticket = await ticketFor(client, email, password);
    const wrong = await client.api.auth.loginTwoFactor({ body: { ticket, code: "123456" } });
    expect(wrong.status).toBe(401);
    expect(wrong.error.code).toBe("auth.invalid_code");
    const right = await client.api.auth.loginTwoFactor({ body: { ticket, code: await codeFor(secret) } });
    expect(right.status).toBe(200);
  });

  it("refuses a ticket used once already", async () => {
    const { email, password, secret } = await userWithTotp();
    const client = await app.client();
    const ticket = await ticketFor(client, email, password);
    expect(
      (await client.api.auth.loginTwoFactor({ body: { ticket, code: await codeFor(secret) } })).status,
    ).toBe(200);
    app.clock.advance(30_000);
    const reused = await client.api.auth.loginTwoFactor({ body: { ticket, code: await codeFor(secret) } });
    expect(reused.status).toBe(401);
    expect(reused.error.code).toBe("auth.invalid_ticket");
  });

  it("refuses a ticket older than 5 minutes", async () => {
    const { email, password, secret } = await userWithTotp();
    const client = await app.client();
    const ticket = await ticketFor(client, email, password);
    app.clock.advance(5 * MINUTE + 1000);
    const res = await client.api.auth.loginTwoFactor({ body: { ticket, code: await codeFor(secret) } });
    expect(res.status).toBe(401);
    expect(res.error.code).toBe("auth.invalid_ticket");
  });

  it("accepts a recovery code once", async () => {
    const { email, password, recoveryCodes } = await userWithTotp();
    const client = await app.client();
    const ok = await client.api.auth.loginTwoFactor({
      body: { ticket: await ticketFor(client, email, password), code: recoveryCodes[0]!.toUpperCase() },
    });
    expect(ok.status).toBe(200);
    const again = await client.api.auth.loginTwoFactor({
      body: { ticket: await ticketFor(client, email, password), code: recoveryCodes[0]! },
    });
    expect(again.status).toBe(401);
    expect(again.error.code).toBe("auth.invalid_code");
  });

  it("counts wrong codes toward the account lockout", async () => {
    const { email, password, secret } = await userWithTotp();
    const client = await app.client();
    const ticket = await ticketFor(client, email, password);
    for (let i = 0; i < 10; i++) {
      expect((await client.api.auth.loginTwoFactor({ body: { ticket, code: "000000" } })).status).toBe(401);
    }
    const locked = await client.api.auth.loginTwoFactor({ body: { ticket, code: await codeFor(secret) } });
    expect(locked.status).toBe(429);
    expect(locked.error.code).toBe("auth.too_many_attempts");
  });
});

describe("POST /panel/auth/2fa/disable", () => {
  it("needs the password and a code", async () => {
    const { client, secret, email, password } = await userWithTotp();
    const badPassword = await client.api.auth.twoFactor.disable({
      body: { password: "wrong-one", code: await codeFor(secret) },
    });
    expect(badPassword.status).toBe(400);
    expect(badPassword.error.code).toBe("auth.invalid_password");
    const badCode = await client.api.auth.twoFactor.disable({ body: { password, code: "000000" } });
    expect(badCode.error.code).toBe("totp.invalid_code");
    const ok = await client.api.auth.twoFactor.disable({ body: { password, code: await codeFor(secret) } });
    expect(ok.status).toBe(204);
    const relog = await app.client();
    const res = await relog.api.auth.login({ body: { email, password } });
    expect(res.body.twoFactorRequired).toBe(false);
    const again = await client.api.auth.twoFactor.disable({ body: { password, code: "000000" } });
    expect(again.error.code).toBe("totp.not_enabled");
  });

  it("is refused to an access token (cookie only)", async () => {
    const client = await app.client();
    const res = await client.api.auth.twoFactor.enroll({
      headers: { authorization: "Bearer svc_pat_unknown" },
    });
    expect(res.status).toBe(401);
  });
});
