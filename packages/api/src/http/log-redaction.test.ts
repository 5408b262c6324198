import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import {
  createLicensedCompany,
  issueLicense,
  OPERATOR,
  signedPost,
  startTestApp,
  TestClient,
  type ResultOf,
  type TestApp,
} from "../testing/index.ts";
import { createLogger } from "./log-redaction.ts";

/**
 * Issue 9, "secrets never in logs": a representative run at trace level, then every log line is scanned
 * for every secret the run created (and the SHA-256 hashes the database keeps of them).
 */

type Heartbeat = ResultOf<typeof operations.client.heartbeat>;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

function capturingApp(options: { smtp?: boolean } = {}) {
  const lines: string[] = [];
  const logger = createLogger({
    level: "trace",
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { lines, start: () => startTestApp({ logger, ...options }) };
}

/** Every secret `value` that appears in a line; `allowMarked` lets lines marked `containsSecret` through. */
function leaks(lines: string[], secrets: Record<string, string>, allowMarked = false) {
  const found: string[] = [];
  for (const line of lines) {
    if (allowMarked && JSON.parse(line).containsSecret) continue;
    for (const [name, value] of Object.entries(secrets)) {
      if (line.includes(value)) found.push(`${name} in ${line.slice(0, 200)}`);
    }
  }
  return found;
}

describe("a representative run leaves no secret in the log", () => {
  const capture = capturingApp();
  let app: TestApp;
  const secrets: Record<string, string> = {};
  const remember = (name: string, value: string | undefined | null) => {
    expect(value, name).toBeTruthy();
    secrets[name] = value!;
    secrets[`${name} (sha256)`] = sha256(value!);
  };

  beforeAll(async () => {
    app = await capture.start();
  }, 60_000);
  afterAll(() => app.close());

  it("sign-in, invitation, 2FA, reset, access tokens, licenses, client API and failed queries", async () => {
    const operator = await app.client({ signIn: true });
    remember("operator password", OPERATOR.password);
    remember("operator session id", operator.cookie);
    const target = await createLicensedCompany(operator);

    // An invitation, read from the real SMTP receiver, previewed and accepted.
    const email = "invitee@example.com";
    expect(
      (await operator.api.users.invite({ body: { email, companyId: target.companyId, role: "admin" } }))
        .status,
    ).toBe(201);
    const inviteToken = /accept-invite\?token=([\w-]+)/.exec((await app.smtp.waitFor(email)).text)![1]!;
    remember("invitation token", inviteToken);
    const member = await app.client();
    expect((await member.api.auth.invitation({ params: { token: inviteToken } })).status).toBe(200);
    // The admin app previews it through tRPC: a query is a GET with its input, token included, in the URL.
    // The URLs are the subject (a batch, another letter case), so they are built by hand.
    const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    for (const url of [
      `/trpc/auth.invitation?input=${input({ json: { token: inviteToken } })}`,
      `/trpc/auth.invitation?batch=1&input=${input({ 0: { json: { token: inviteToken } } })}`,
      `/TRPC/auth.invitation?input=${input({ json: { token: inviteToken } })}`,
    ]) {
      expect((await member.get(url)).status, url).toBe(200);
    }
    const unknown = `/trpc/auth.invitation?input=${input({ json: { token: `${inviteToken}x` } })}`;
    expect((await member.get(unknown)).status).toBe(404);
    remember("member password", "member-password-one");
    expect(
      (await member.api.auth.acceptInvite({ body: { token: inviteToken, password: "member-password-one" } }))
        .status,
    ).toBe(200);
    await member.login(email, "member-password-one");
    remember("member session id", member.cookie);

    // TOTP: the secret, a code, the recovery codes, a login ticket.
    const enrolled = await member.api.auth.twoFactor.enroll();
    remember("totp secret", enrolled.body.secret);
    const code = (offset = 0) =>
      generate({
        secret: secrets["totp secret"]!,
        epoch: Math.floor(app.clock.now().getTime() / 1000) + offset,
      });
    const enabled = await member.api.auth.twoFactor.enable({ body: { code: await code() } });
    enabled.body.recoveryCodes.forEach((c, i) => remember(`recovery code ${i}`, c));
    expect((await app.smtp.waitFor(email)).subject).toBe("Two-factor authentication was turned on");
    app.clock.advance(30_000);
    const second = await app.client();
    const ticket = await second.api.auth.login({ body: { email, password: "member-password-one" } });
    remember("2fa ticket", ticket.body.ticket);
    const loginTwoFactor = async (code: string) =>
      (await second.api.auth.loginTwoFactor({ body: { ticket: ticket.body.ticket!, code } })).status;
    expect(await loginTwoFactor("000000")).toBe(401);
    expect(await loginTwoFactor(await code())).toBe(200);
    remember("2fa session id", second.cookie);

    // Password reset by mail.
    const anonymous = await app.client();
    expect((await anonymous.api.auth.forgotPassword({ body: { email } })).status).toBe(204);
    const resetToken = /reset-password\?token=([\w-]+)/.exec((await app.smtp.waitFor(email)).text)![1]!;
    remember("reset token", resetToken);
    remember("reset password", "member-password-two");
    const reset = await anonymous.api.auth.resetPassword({
      body: { token: resetToken, newPassword: "member-password-two" },
    });
    expect(reset.status).toBe(204);

    // A personal access token, used and misused.
    const created = await operator.api.apiTokens.create({
      body: { name: "ci", companyId: target.companyId },
    });
    remember("access token", created.body.secret);
    const bearer = new TestClient(app.url);
    bearer.headers.authorization = `Bearer ${created.body.secret}`;
    expect((await bearer.api.companies.list()).status).toBe(200);
    expect(
      (await bearer.api.companies.list({ headers: { authorization: `Bearer ${created.body.secret}x` } }))
        .status,
    ).toBe(401);

    // A license, its file, and the client API with both signature versions.
    const license = await issueLicense(operator, target, {
      config: '{"features":["x"],"limits":{"maxSeats":3}}',
    });
    remember("license key", license.licenseKey);
    remember("license token", license.token);
    expect((await operator.api.licenses.file({ params: { id: license.id } })).status).toBe(200);
    expect((await operator.api.client.publicKey({ params: { licenseKey: license.licenseKey } })).status).toBe(
      200,
    );
    const client = await app.client();
    const activated = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "fp-1" },
    });
    remember("first marker", activated.body.heartbeatToken);
    const body = { licenseKey: license.licenseKey, activationId: activated.body.activationId };
    const beat = await signedPost<Heartbeat>(client, app.clock.now(), "/api/v1/client/heartbeat", body);
    remember("heartbeat marker", beat.body.heartbeatToken);
    expect(
      (await signedPost(client, app.clock.now(), "/api/v1/client/heartbeat", body, { key: "SVC-WRONG" }))
        .status,
    ).toBe(401);

    // Failed queries that carry secrets as bound values: the tables are away for a moment.
    await app.database.db.execute(sql`alter table activations rename to activations_away`);
    await app.database.db.execute(sql`alter table one_time_tokens rename to one_time_tokens_away`);
    try {
      expect((await signedPost(client, app.clock.now(), "/api/v1/client/heartbeat", body)).status).toBe(500);
      expect(
        (
          await client.api.client.activate({
            body: { licenseKey: license.licenseKey, hwFingerprint: "fp-2" },
          })
        ).status,
      ).toBe(500);
      expect(
        (
          await client.api.auth.resetPassword({
            body: { token: resetToken, newPassword: "member-password-3" },
          })
        ).status,
      ).toBe(500);
    } finally {
      await app.database.db.execute(sql`alter table activations_away rename to activations`);
      await app.database.db.execute(sql`alter table one_time_tokens_away rename to one_time_tokens`);
    }
    expect((await signedPost(client, app.clock.now(), "/api/v1/client/deactivate", body)).status).toBe(204);
    expect((await operator.api.auth.logout()).status).toBe(204);
    await app.deps.mailer.idle();

    // The failed queries were logged, with their SQL and without their values.
    const failures = capture.lines.filter((l) => l.includes("Failed query"));
    expect(failures.length).toBeGreaterThanOrEqual(3);
    for (const line of failures) expect(line).not.toMatch(/params/);
    expect(capture.lines.length).toBeGreaterThan(25);

    expect(leaks(capture.lines, secrets)).toEqual([]);
  }, 120_000);
});

describe("without SMTP_URL, mails in the log are the documented exception", () => {
  const capture = capturingApp({ smtp: false });
  let app: TestApp;
  beforeAll(async () => {
    app = await capture.start();
  }, 60_000);
  afterAll(() => app.close());

  it("the link is only in a marked warn line, and nowhere else", async () => {
    const operator = await app.client({ signIn: true });
    const target = await createLicensedCompany(operator);
    const email = "unsent@example.com";
    await operator.api.users.invite({ body: { email, companyId: target.companyId, role: "viewer" } });
    await app.deps.mailer.idle();
    const mailLines = capture.lines.filter((l) => l.includes("accept-invite?token="));
    expect(mailLines).toHaveLength(1);
    const line = JSON.parse(mailLines[0]!);
    expect(line).toMatchObject({ level: 40, containsSecret: "mail link", mail: { to: email } });
    const token = /accept-invite\?token=([\w-]+)/.exec(line.mail.text)![1]!;
    expect((await (await app.client()).api.auth.invitation({ params: { token } })).status).toBe(200);
    expect(leaks(capture.lines, { token }, true)).toEqual([]);
  }, 60_000);
});
