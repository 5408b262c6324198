import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../http/log-redaction.ts";
import { dumpDatabase } from "../testing/database-dump.ts";
import { createCompany, createMember } from "../testing/fixtures.ts";
import { startTestApp, TestClient, type TestApp } from "../testing/index.ts";

// docs/security.md: a dump of the database opens nothing. After an operator invitation and a password
// reset (and a session and an access token), the dump holds none of their secrets, with SMTP and without
// it (then the log is the delivery, and the outbox row keeps the mail without its token).
describe.each([
  { smtp: true, status: "sent" },
  { smtp: false, status: "logged" },
])("with SMTP $smtp, a database dump", ({ smtp, status }) => {
  const lines: string[] = [];
  let app: TestApp;
  beforeAll(async () => {
    const logger = createLogger({ level: "warn", destination: { write: (l: string) => void lines.push(l) } });
    app = await startTestApp({ smtp, logger });
  });
  afterAll(() => app.close());

  /** The token of the link in the mail to `to`: from the SMTP receiver, or from the log without SMTP. */
  async function linkToken(to: string, path: string) {
    await app.deps.mailer.idle();
    const text = smtp
      ? (await app.smtp.waitFor(to)).text
      : lines.map((l) => JSON.parse(l)).find((l) => l.mail?.to === to)!.mail.text;
    return new RegExp(`/${path}\\?token=([\\w-]+)`).exec(text)![1]!;
  }

  it("holds neither the invitation token nor the reset token (nor a session id or an access token)", async () => {
    const operator = await app.client({ signIn: true });
    const invitee = "new-operator@example.com";
    expect((await operator.api.operator.users.invite({ body: { email: invitee } })).status).toBe(200);
    const inviteToken = await linkToken(invitee, "accept-invite");
    const member = await createMember(app, {
      companyId: (await createCompany(operator, null)).id,
      role: "admin",
    });
    expect(
      (await new TestClient(app.url).api.auth.forgotPassword({ body: { email: member.email } })).status,
    ).toBe(204);
    const resetToken = await linkToken(member.email, "reset-password");
    const pat = await operator.api.apiTokens.create({
      body: { name: "dump", companyId: (await createCompany(operator, null)).id },
    });
    // The tokens read are the live ones.
    expect(
      (await new TestClient(app.url).api.auth.invitation({ params: { token: inviteToken } })).status,
    ).toBe(200);

    const dump = await dumpDatabase(app.database);
    expect(dump).toContain(invitee);
    expect(dump).toContain(member.email);
    const secrets = {
      inviteToken,
      resetToken,
      session: operator.cookie!,
      accessToken: pat.body.secret.slice("svc_pat_".length),
    };
    for (const [name, secret] of Object.entries(secrets)) expect(dump.includes(secret), name).toBe(false);

    const outbox = await app.deps.db
      .select()
      .from(tables.mailOutbox)
      .where(eq(tables.mailOutbox.to, invitee));
    expect(outbox).toEqual([expect.objectContaining({ subject: expect.any(String), status })]);
    if (smtp) expect(outbox[0]!.text).toBeNull();
    else expect(outbox[0]!.text).toMatch(/accept-invite\?token=\[removed\]/);
  });
});
