import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, TestClient, type TestApp } from "../testing/index.ts";
import {
  createCompany,
  createMember,
  MEMBER_PASSWORD,
  type CompanyBody,
  type Member,
} from "../testing/fixtures.ts";

// A token made with a token hangs under it and acts for the same user (decision 0037): it works only while
// that user is active and no token above it is revoked.
const DAY = 86_400_000;
let app: TestApp;
let op: TestClient;
let company: CompanyBody;
let owner: Member;

beforeAll(async () => {
  app = await startTestApp();
  op = await app.client({ signIn: true });
  company = await createCompany(op, null);
  owner = await createMember(app, { companyId: company.id, role: "owner" });
});
afterAll(() => app.close());

interface Made {
  id: string;
  client: TestClient;
}

/** A token made by `creator` (a user's session or another token) over HTTP. */
async function makeToken(creator: TestClient, body: { expiresInDays?: number } = {}): Promise<Made> {
  const res = await creator.api.apiTokens.create({ body: { name: "chain", companyId: company.id, ...body } });
  expect(res.status).toBe(201);
  const client = new TestClient(app.url);
  client.headers.authorization = `Bearer ${res.body.secret}`;
  return { id: res.body.token.id, client };
}

/** user → A → B → C, the user an Admin of the company. */
async function chain() {
  const user = await createMember(app, { companyId: company.id, role: "admin" });
  const a = await makeToken(user.client);
  const b = await makeToken(a.client);
  const c = await makeToken(b.client);
  for (const token of [a, b, c]) expect((await token.client.api.auth.me()).status).toBe(200);
  return { user, a, b, c };
}

const row = async (id: string) =>
  (await app.deps.db.select().from(tables.apiTokens).where(eq(tables.apiTokens.id, id)))[0]!;

const expectRefused = async (token: Made, message: RegExp) => {
  const res = await token.client.api.auth.me();
  expect(res.status).toBe(401);
  expect(res.error).toEqual({
    code: "auth.invalid_token",
    message: expect.stringMatching(message),
    status: 401,
  });
};

describe("a token made with a token", () => {
  it("records its chain: the root user and the parent token", async () => {
    const { user, a, b, c } = await chain();
    expect(await row(a.id)).toMatchObject({
      createdByUserId: user.id,
      rootUserId: user.id,
      parentTokenId: null,
    });
    expect(await row(b.id)).toMatchObject({
      createdByUserId: null,
      rootUserId: user.id,
      parentTokenId: a.id,
    });
    expect(await row(c.id)).toMatchObject({
      createdByUserId: null,
      rootUserId: user.id,
      parentTokenId: b.id,
    });
    const [audit] = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, b.id));
    expect(audit!.meta).toMatchObject({ parentTokenId: a.id });
  });

  it("stops working when its root user is deactivated, and the list shows the whole chain revoked", async () => {
    const { user, a, b, c } = await chain();
    expect((await owner.client.api.users.deactivate({ params: { id: user.id } })).status).toBe(204);
    for (const token of [a, b, c]) await expectRefused(token, /revoked/);
    const listed = (await owner.client.api.apiTokens.list()).body;
    for (const token of [a, b, c]) expect(listed.find((t) => t.id === token.id)!.revokedAt).not.toBeNull();
  });

  it("stops working when a token above it is revoked; the revocation reaches every descendant", async () => {
    const { a, b, c } = await chain();
    expect((await owner.client.api.apiTokens.revoke({ params: { id: b.id } })).status).toBe(204);
    expect((await a.client.api.auth.me()).status).toBe(200);
    await expectRefused(b, /revoked/);
    await expectRefused(c, /revoked/);
    expect((await row(c.id)).revokedAt).not.toBeNull();
    const audits = await app.deps.db.select().from(tables.auditLog).where(eq(tables.auditLog.entityId, b.id));
    expect(audits.find((r) => r.action === "api_token.revoked")!.meta).toMatchObject({
      revokedDescendants: 1,
    });
  });

  // Authentication itself checks the chain, whatever wrote the rows: these change one row only.
  it("is refused at authentication when its root user is no longer active, even with no revocation written", async () => {
    const { user, b, c } = await chain();
    await app.deps.db.update(tables.users).set({ status: "revoked" }).where(eq(tables.users.id, user.id));
    await expectRefused(b, /user the access token acts for is no longer active/);
    await expectRefused(c, /user the access token acts for is no longer active/);
  });

  it("is refused at authentication when an ancestor is revoked, even with no revocation written below it", async () => {
    const { a, b, c } = await chain();
    await app.deps.db
      .update(tables.apiTokens)
      .set({ revokedAt: app.clock.now() })
      .where(eq(tables.apiTokens.id, a.id));
    await expectRefused(b, /made with a token that has since been revoked/);
    await expectRefused(c, /made with a token that has since been revoked/);
  });

  it("expires no later than the token it was made with", async () => {
    const user = await createMember(app, { companyId: company.id, role: "admin" });
    const a = await makeToken(user.client, { expiresInDays: 10 });
    const forever = await makeToken(a.client);
    const longer = await makeToken(a.client, { expiresInDays: 30 });
    const shorter = await makeToken(a.client, { expiresInDays: 2 });
    const aExpires = (await row(a.id)).expiresAt!;
    expect((await row(forever.id)).expiresAt).toEqual(aExpires);
    expect((await row(longer.id)).expiresAt).toEqual(aExpires);
    expect((await row(shorter.id)).expiresAt).toEqual(new Date(app.clock.now().getTime() + 2 * DAY));
    app.clock.advance(10 * DAY);
    for (const token of [a, forever, longer]) await expectRefused(token, /expired/);
    // The jump also ended the sessions this file shares.
    await owner.client.login(owner.email, MEMBER_PASSWORD);
  });
});
