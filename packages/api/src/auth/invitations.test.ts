import { DAY } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";

let app: TestApp;
let operator: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
});
afterAll(() => app.close());

let invites = 0;

async function inviteOperator() {
  const email = `invitee${++invites}@example.com`;
  const res = await operator.api.operator.users.invite({ body: { email, displayName: "New Operator" } });
  expect(res.status).toBe(200);
  const mail = await app.smtp.waitFor(email);
  const token = /\/accept-invite\?token=([\w-]+)/.exec(mail.text)![1]!;
  return { email, token, user: res.body };
}

describe("GET /panel/auth/invite/{token}", () => {
  it("previews a live invitation and 404s an unknown one", async () => {
    const { email, token } = await inviteOperator();
    const client = await app.client();
    const preview = await client.api.auth.invitation({ params: { token } });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      email,
      companyName: null,
      role: "operator",
      expiresAt: expect.any(String),
    });
    expect(new Date(preview.body.expiresAt).getTime() - app.clock.now().getTime()).toBe(7 * DAY);
    const unknown = await client.api.auth.invitation({ params: { token: "not-a-real-token" } });
    expect(unknown.status).toBe(404);
    expect(unknown.error.code).toBe("invitation.not_found");
  });
});

describe("POST /panel/auth/accept-invite", () => {
  it("sets the password, activates the account and signs in; the link then stops working", async () => {
    const { email, token } = await inviteOperator();
    const client = await app.client();
    const short = await client.api.auth.acceptInvite({ body: { token, password: "short" } });
    expect(short.status).toBe(400);
    expect(short.error.code).toBe("auth.password_too_short");

    const ok = await client.api.auth.acceptInvite({ body: { token, password: "invitee-password" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ email, isOperator: true, displayName: "New Operator" });
    expect((await client.api.auth.me()).body.email).toBe(email);

    const again = await (
      await app.client()
    ).api.auth.acceptInvite({ body: { token, password: "other-password" } });
    expect(again.status).toBe(404);
    expect(again.error.code).toBe("invitation.not_found");
    expect((await client.api.auth.invitation({ params: { token } })).status).toBe(404);
  });

  it("refuses an invitation older than 7 days", async () => {
    const { token } = await inviteOperator();
    app.clock.advance(7 * DAY + 1000);
    const res = await (
      await app.client()
    ).api.auth.acceptInvite({ body: { token, password: "invitee-password" } });
    expect(res.status).toBe(404);
    operator = await app.client({ signIn: true });
  });
});
