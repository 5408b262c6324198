import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { sealedAt, SealedValueError } from "@licensing/core";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../http/log-redaction.ts";
import { createMember, MEMBER_PASSWORD } from "../testing/fixtures.ts";
import { startTestApp, TestClient, type TestApp } from "../testing/index.ts";

// A sealed value is bound to its row (table:column:rowId as AES-GCM associated data): someone who can
// write to the database cannot move their own TOTP secret into another account and pass its 2FA.
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const lines: string[] = [];
let app: TestApp;
beforeAll(async () => {
  const logger = createLogger({ level: "error", destination: { write: (l: string) => void lines.push(l) } });
  app = await startTestApp({ logger });
});
afterAll(() => app.close());

const totpOf = (userId: string) => sealedAt(tables.users.totpSecret, userId);
const setTotp = (userId: string, sealed: string) =>
  app.deps.db
    .update(tables.users)
    .set({ totpSecret: sealed, totpEnabled: true })
    .where(eq(tables.users.id, userId));

async function signInWithCode(email: string) {
  const client = new TestClient(app.url);
  const ticket = (await client.api.auth.login({ body: { email, password: MEMBER_PASSWORD } })).body
    .ticket as string;
  expect(ticket).toEqual(expect.any(String));
  const code = await generate({ secret: SECRET, epoch: Math.floor(app.clock.now().getTime() / 1000) });
  return client.api.auth.loginTwoFactor({ body: { ticket, code } });
}

describe("a sealed TOTP secret moved to another user's row", () => {
  it("opens for its own row only: B's 2FA fails with a logged, clear error instead of accepting A's codes", async () => {
    const a = await createMember(app, {});
    const b = await createMember(app, {});
    const sealedForA = app.deps.secrets.seal(SECRET, totpOf(a.id));
    await setTotp(a.id, sealedForA);
    expect((await signInWithCode(a.email)).status).toBe(200);

    app.clock.advance(30_000);
    await setTotp(b.id, sealedForA);
    const moved = await signInWithCode(b.email);
    expect(moved.status).toBe(500);
    expect(moved.error).toEqual({ code: "internal", message: expect.any(String), status: 500 });
    expect(lines.join("\n")).toContain(
      `The sealed value at users:totp_secret:${b.id} does not open: it was sealed for another row or column`,
    );
    expect(() => app.deps.secrets.open(sealedForA, totpOf(b.id))).toThrow(SealedValueError);
  });

  it("does not open in another column either", () => {
    const sealed = app.deps.secrets.seal(SECRET, totpOf("00000000-0000-4000-8000-000000000001"));
    const elsewhere = sealedAt(tables.webhookEndpoints.secretSealed, "00000000-0000-4000-8000-000000000001");
    expect(() => app.deps.secrets.open(sealed, elsewhere)).toThrow(/does not open/);
  });
});
