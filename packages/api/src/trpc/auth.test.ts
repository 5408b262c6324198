import type { AppError } from "@licensing/core";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTokenClient, MEMBER_PASSWORD, seedCompany, createMember } from "../testing/fixtures.ts";
import { OPERATOR, startTestApp, trpcCaller, type TestApp } from "../testing/index.ts";

// The auth procedures through appRouter.createCaller: no HTTP, the context's headers and cookie setter.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** The spec code of a procedure's failure (the TRPCError's cause). */
async function codeOf(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: { code: string; cause?: AppError }) => e,
  );
  return { trpc: error?.code, app: error?.cause?.code };
}

const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });

async function signedInOperator() {
  const browser = trpcCaller(app.deps);
  const login = await browser.call().auth.login(OPERATOR);
  expect(login).toMatchObject({ twoFactorRequired: false, user: { email: OPERATOR.email } });
  expect(browser.jar.sessionId).toEqual(expect.any(String));
  return browser;
}

describe("auth procedures through createCaller", () => {
  it("login sets the session cookie, me reads it, logout clears and ends it", async () => {
    const browser = await signedInOperator();
    const sessionId = browser.jar.sessionId;
    expect(await browser.call().auth.me()).toMatchObject({ email: OPERATOR.email, isOperator: true });
    await browser.call().auth.logout();
    expect(browser.jar.sessionId).toBeNull();
    browser.jar.sessionId = sessionId;
    expect(await codeOf(browser.call().auth.me())).toEqual({
      trpc: "UNAUTHORIZED",
      app: "auth.unauthenticated",
    });
  });

  it("refuses wrong credentials with the spec's code", async () => {
    const browser = trpcCaller(app.deps);
    expect(
      await codeOf(browser.call().auth.login({ email: OPERATOR.email, password: "wrong-password" })),
    ).toEqual({
      trpc: "UNAUTHORIZED",
      app: "auth.invalid_credentials",
    });
    expect(browser.jar.sessionId).toBeNull();
  });

  it("previews and accepts an invitation, signing the invitee in", async () => {
    const operator = await signedInOperator();
    const email = "trpc-invitee@example.com";
    await operator.call().operator.users.invite({ email, displayName: "Invitee" });
    const token = /\/accept-invite\?token=([\w-]+)/.exec((await app.smtp.waitFor(email)).text)![1]!;
    const invitee = trpcCaller(app.deps);
    expect(await invitee.call().auth.invitation({ token })).toMatchObject({ email, role: "operator" });
    const user = await invitee.call().auth.acceptInvite({ token, password: "invitee-password" });
    expect(user).toMatchObject({ email, isOperator: true });
    expect((await invitee.call().auth.me()).email).toBe(email);
    expect(await codeOf(invitee.call().auth.invitation({ token }))).toEqual({
      trpc: "NOT_FOUND",
      app: "invitation.not_found",
    });
  });

  it("resets a forgotten password by mail, and changes it while signed in", async () => {
    const member = await createMember(app, { isOperator: true });
    const browser = trpcCaller(app.deps);
    await browser.call().auth.forgotPassword({ email: member.email });
    const token = /reset-password\?token=([\w-]+)/.exec((await app.smtp.waitFor(member.email)).text)![1]!;
    await browser.call().auth.resetPassword({ token, newPassword: "reset-password-1" });
    await browser.call().auth.login({ email: member.email, password: "reset-password-1" });
    await browser.call().auth.changePassword({
      currentPassword: "reset-password-1",
      newPassword: "changed-password-1",
    });
    const again = trpcCaller(app.deps);
    expect(await codeOf(again.call().auth.login({ email: member.email, password: MEMBER_PASSWORD }))).toEqual(
      {
        trpc: "UNAUTHORIZED",
        app: "auth.invalid_credentials",
      },
    );
    await again.call().auth.login({ email: member.email, password: "changed-password-1" });
    expect(again.jar.sessionId).toEqual(expect.any(String));
  });

  it("enrols, enables and disables 2FA, and signs in with the second step", async () => {
    const member = await createMember(app, { isOperator: true });
    const browser = trpcCaller(app.deps);
    await browser.call().auth.login({ email: member.email, password: MEMBER_PASSWORD });
    const { secret } = await browser.call().auth.twoFactor.enroll();
    const { recoveryCodes } = await browser.call().auth.twoFactor.enable({ code: await codeFor(secret) });
    expect(recoveryCodes).toHaveLength(10);
    app.clock.advance(30_000);

    const second = trpcCaller(app.deps);
    const first = await second.call().auth.login({ email: member.email, password: MEMBER_PASSWORD });
    expect(first).toEqual({ twoFactorRequired: true, ticket: expect.any(String), user: null });
    expect(second.jar.sessionId).toBeNull();
    const user = await second
      .call()
      .auth.loginTwoFactor({ ticket: first.ticket!, code: await codeFor(secret) });
    expect(user.email).toBe(member.email);
    expect(second.jar.sessionId).toEqual(expect.any(String));

    app.clock.advance(30_000);
    await second.call().auth.twoFactor.disable({ password: MEMBER_PASSWORD, code: await codeFor(secret) });
    expect((await second.call().auth.me()).totpEnabled).toBe(false);
  });

  it("asks an old session for the password before 2FA enrolment and enabling", async () => {
    const member = await createMember(app, {});
    const browser = trpcCaller(app.deps);
    await browser.call().auth.login({ email: member.email, password: MEMBER_PASSWORD });
    app.clock.advance(10 * 60_000);
    expect(await codeOf(browser.call().auth.twoFactor.enroll())).toEqual({
      trpc: "FORBIDDEN",
      app: "auth.reauthentication_required",
    });
    const { secret } = await browser.call().auth.twoFactor.enroll({ password: MEMBER_PASSWORD });
    expect(await codeOf(browser.call().auth.twoFactor.enable({ code: await codeFor(secret) }))).toEqual({
      trpc: "FORBIDDEN",
      app: "auth.reauthentication_required",
    });
    const { recoveryCodes } = await browser
      .call()
      .auth.twoFactor.enable({ code: await codeFor(secret), password: MEMBER_PASSWORD });
    expect(recoveryCodes).toHaveLength(10);
    expect(member.client.cookie).toBeDefined();
    expect((await member.client.api.auth.me()).status).toBe(401);
  });

  it("keeps session-only operations from access tokens", async () => {
    const company = await seedCompany(app);
    const { secret } = await createTokenClient(app, company);
    const token = trpcCaller(app.deps, { bearer: secret });
    expect((await token.call().auth.me()).companyId).toBe(company.id);
    expect(await codeOf(token.call().auth.twoFactor.enroll())).toEqual({
      trpc: "UNAUTHORIZED",
      app: "auth.session_required",
    });
  });
});
