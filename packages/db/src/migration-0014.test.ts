import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tables } from "./index.ts";
import { createTestDatabaseBefore, type TestDatabase } from "./testing.ts";

// The data steps of 0014 on rows written before it: the outbox loses its tokens, token chains are
// recovered from the audit log, and chains already cut are revoked (decision 0037).
const TAG = "0014_secrets_at_rest_and_token_chains";
const TOKEN = "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6";

let database: TestDatabase;
const ids = {
  company: randomUUID(),
  active: randomUUID(),
  gone: randomUUID(),
  byUser: randomUUID(),
  child: randomUUID(),
  grandchild: randomUUID(),
  ofGone: randomUUID(),
  childOfGone: randomUUID(),
  orphan: randomUUID(),
  childOfRevoked: randomUUID(),
  revoked: randomUUID(),
};
const at = (day: number) => new Date(Date.UTC(2030, 0, day));

beforeAll(async () => {
  database = await createTestDatabaseBefore(TAG);
  const db = database.db;
  await db.execute(sql`insert into companies (id, name, slug, path, depth, created_at)
    values (${ids.company}, 'C', 'c', ${`/${ids.company}/`}, 0, now())`);
  await db.execute(sql`insert into users (id, email, status, created_at) values
    (${ids.active}, 'active@example.com', 'active', now()), (${ids.gone}, 'gone@example.com', 'revoked', now())`);
  const token = (
    id: string,
    prefix: string,
    day: number,
    createdBy: string | null,
    extra = sql`null, null`,
  ) =>
    db.execute(sql`insert into api_tokens (id, name, company_id, created_by_user_id, prefix, secret_hash, created_at, expires_at, revoked_at)
      values (${id}, ${prefix}, ${ids.company}, ${createdBy}, ${`svc_pat_${prefix}`}, ${randomUUID()}, ${at(day)}, ${extra})`);
  const madeWith = (child: string, parentPrefix: string, day: number) =>
    db.execute(sql`insert into audit_log (action, actor_email, entity_type, entity_id, occurred_at)
      values ('api_token.created', ${`token:svc_pat_${parentPrefix}`}, 'api_token', ${child}, ${at(day)})`);
  await token(ids.byUser, "aaaaaa", 1, ids.active, sql`${at(40)}, null`);
  await token(ids.child, "bbbbbb", 2, null, sql`${at(90)}, null`);
  await madeWith(ids.child, "aaaaaa", 2);
  await token(ids.grandchild, "cccccc", 3, null);
  await madeWith(ids.grandchild, "bbbbbb", 3);
  // The user was deactivated (which revoked the token they made), but not the token made with it.
  await token(ids.ofGone, "dddddd", 1, ids.gone, sql`null, ${at(5)}`);
  await token(ids.childOfGone, "eeeeee", 2, null);
  await madeWith(ids.childOfGone, "dddddd", 2);
  // No audit row names the token it was made with.
  await token(ids.orphan, "ffffff", 2, null);
  await token(ids.revoked, "gggggg", 1, ids.active, sql`null, ${at(5)}`);
  await token(ids.childOfRevoked, "hhhhhh", 2, null);
  await madeWith(ids.childOfRevoked, "gggggg", 2);
  await db.execute(sql`insert into mail_outbox ("to", subject, text, status, created_at) values
    ('a@example.com', 'sent', ${`https://x.example/accept-invite?token=${TOKEN}\n`}, 'sent', now()),
    ('b@example.com', 'logged', ${`Reset: https://x.example/reset-password?token=${TOKEN}\nBye`}, 'logged', now())`);
  await database.migrate();
});
afterAll(async () => {
  await database?.dispose();
});

const token = async (id: string) =>
  (await database.db.select().from(tables.apiTokens).where(eq(tables.apiTokens.id, id)))[0]!;

describe(`migration ${TAG}`, () => {
  it("removes the tokens from the mail outbox: no body once sent, the link without its token otherwise", async () => {
    const rows = await database.db.select().from(tables.mailOutbox).orderBy(asc(tables.mailOutbox.to));
    expect(rows.map((r) => r.text)).toEqual([
      null,
      "Reset: https://x.example/reset-password?token=[removed]\nBye",
    ]);
  });

  it("gives a token made by a user that user as its root", async () => {
    expect(await token(ids.byUser)).toMatchObject({
      rootUserId: ids.active,
      parentTokenId: null,
      revokedAt: null,
    });
  });

  it("recovers the chain of a token made with a token from the audit log, and caps its expiry", async () => {
    expect(await token(ids.child)).toMatchObject({
      rootUserId: ids.active,
      parentTokenId: ids.byUser,
      expiresAt: at(40),
      revokedAt: null,
    });
    expect(await token(ids.grandchild)).toMatchObject({
      rootUserId: ids.active,
      parentTokenId: ids.child,
      expiresAt: at(40),
      revokedAt: null,
    });
  });

  it("revokes, with an audit row each, the tokens whose chain is already cut or whose origin is unknown", async () => {
    for (const id of [ids.childOfGone, ids.orphan, ids.childOfRevoked]) {
      expect((await token(id)).revokedAt, id).not.toBeNull();
    }
    expect(await token(ids.childOfGone)).toMatchObject({ rootUserId: ids.gone, parentTokenId: ids.ofGone });
    expect(await token(ids.orphan)).toMatchObject({ rootUserId: null, parentTokenId: null });
    const audits = await database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.action, "api_token.revoked"));
    expect(audits.map((a) => a.entityId).sort()).toEqual(
      [ids.childOfGone, ids.orphan, ids.childOfRevoked].sort(),
    );
    expect(audits.find((a) => a.entityId === ids.orphan)!.meta).toMatchObject({
      prefix: "svc_pat_ffffff",
      reason: expect.stringMatching(/unknown/),
    });
    // What was revoked before keeps its own date.
    expect((await token(ids.ofGone)).revokedAt).toEqual(at(5));
  });
});
