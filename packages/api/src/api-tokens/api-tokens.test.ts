import { createHash } from "node:crypto";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import { startTestApp, TestClient, type BodyOf, type TestApp } from "../testing/index.ts";
import {
  createCompany,
  createMember,
  createTokenClient,
  type CompanyBody,
  type Member,
} from "../testing/fixtures.ts";

const base = "/api/v1/panel/api-tokens";
const DAY = 86_400_000;
let app: TestApp;
let op: TestClient;
let root: CompanyBody;
let a: CompanyBody;
let b: CompanyBody;
let owner: Member;

beforeAll(async () => {
  app = await startTestApp();
  op = await app.client({ signIn: true });
  root = await createCompany(op, null);
  a = await createCompany(op, root.id);
  b = await createCompany(op, root.id);
  owner = await createMember(app, { companyId: a.id, role: "owner" });
});
afterAll(() => app.close());

const createToken = (client: TestClient, body: BodyOf<typeof operations.apiTokens.create>) =>
  client.api.apiTokens.create({ body });
const bearer = (secret: string) => {
  const client = new TestClient(app.url);
  client.headers.authorization = `Bearer ${secret}`;
  return client;
};

describe("POST /panel/api-tokens", () => {
  it("returns the secret once and stores only its SHA-256 and a short prefix", async () => {
    const res = await createToken(owner.client, { name: "CI", companyId: a.id, expiresInDays: 30 });
    expect(res.status).toBe(201);
    const { token, secret } = res.body;
    expect(secret).toMatch(/^svc_pat_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice(8), "base64url")).toHaveLength(32);
    expect(token).toMatchObject({ name: "CI", companyId: a.id, revokedAt: null, lastUsedAt: null });
    expect(secret.startsWith(token.prefix)).toBe(true);
    expect(token.prefix.length).toBeLessThan(16);
    expect(new Date(token.expiresAt!).getTime() - new Date(token.createdAt).getTime()).toBe(30 * DAY);
    const [row] = await app.deps.db.select().from(tables.apiTokens).where(eq(tables.apiTokens.id, token.id));
    expect(row!.secretHash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(secret.slice(8));
    const list = await owner.client.api.apiTokens.list();
    expect(list.text).not.toContain(secret.slice(8));
    expect(list.body.map((t) => t.id)).toContain(token.id);
    const [audit] = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, token.id));
    expect(audit).toMatchObject({ action: "api_token.created", actorEmail: owner.email });
    expect(JSON.stringify(audit!.meta)).not.toContain(secret.slice(8));
  });

  it("needs a name: api_token.name_required", async () => {
    for (const body of [
      { companyId: a.id },
      { name: "", companyId: a.id },
      { name: "   ", companyId: a.id },
    ]) {
      const res = await createToken(owner.client, body);
      expect(res.status).toBe(400);
      expect(res.error).toEqual({
        code: "api_token.name_required",
        message: expect.any(String),
        status: 400,
      });
    }
  });

  it("accepts expiresInDays 1..3650 and refuses anything else with api_token.invalid_expiry", async () => {
    for (const days of [0, -1, 3651, 1.5]) {
      const res = await createToken(owner.client, { name: "x", companyId: a.id, expiresInDays: days });
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("api_token.invalid_expiry");
    }
    for (const days of [1, 3650]) {
      expect(
        (await createToken(owner.client, { name: "x", companyId: a.id, expiresInDays: days })).status,
      ).toBe(201);
    }
    const never = await createToken(owner.client, { name: "x", companyId: a.id });
    expect(never.body.token.expiresAt).toBeNull();
    // A body the schema refuses, sent as it is.
    expect(
      (await owner.client.post(base, { name: "x", companyId: a.id, expiresInDays: "ten" })).error.code,
    ).toBe("request.invalid");
  });

  it("needs Admin on the target company; outside the subtree it is 404", async () => {
    const viewer = await createMember(app, { companyId: a.id, role: "viewer" });
    const denied = await createToken(viewer.client, { name: "x", companyId: a.id });
    expect(denied.status).toBe(403);
    expect(denied.error.code).toBe("auth.forbidden");
    const outside = await createToken(owner.client, { name: "x", companyId: b.id });
    expect(outside.status).toBe(404);
    expect(outside.error.code).toBe("company.not_found");
  });
});

describe("Bearer svc_pat_ authentication", () => {
  it("acts as Admin inside its company's subtree and never as operator", async () => {
    const { client } = await createTokenClient(app, root, { creator: op });
    const me = await client.api.auth.me();
    expect(me.body).toMatchObject({ companyId: root.id, role: "admin", isOperator: false });
    expect((await client.api.companies.get({ params: { id: a.id } })).status).toBe(200);
    expect((await client.api.companies.create({ body: { name: "r", slug: "r-token" } })).error.code).toBe(
      "auth.operator_required",
    );
    expect((await client.api.operator.users.list()).status).toBe(403);
    expect((await client.api.audit.list()).status).toBe(403);
    const other = await createCompany(op, null);
    expect((await client.api.companies.get({ params: { id: other.id } })).status).toBe(404);
  });

  it("updates lastUsedAt at most once a minute", async () => {
    const { client, id } = await createTokenClient(app, a, { creator: owner.client });
    const lastUsed = async () =>
      (await app.deps.db.select().from(tables.apiTokens).where(eq(tables.apiTokens.id, id)))[0]!.lastUsedAt;
    await client.api.auth.me();
    const first = await lastUsed();
    expect(first).toEqual(app.clock.now());
    app.clock.advance(30_000);
    await client.api.auth.me();
    expect(await lastUsed()).toEqual(first);
    app.clock.advance(31_000);
    await client.api.auth.me();
    expect(await lastUsed()).toEqual(app.clock.now());
  });

  it("rejects an expired token with 401", async () => {
    const res = await createToken(owner.client, { name: "short", companyId: a.id, expiresInDays: 1 });
    const client = bearer(res.body.secret);
    expect((await client.api.auth.me()).status).toBe(200);
    app.clock.advance(DAY);
    const expired = await client.api.auth.me();
    expect(expired.status).toBe(401);
    expect(expired.error.code).toBe("auth.invalid_token");
  });

  it("rejects unknown and malformed tokens with 401", async () => {
    expect((await bearer(`svc_pat_${"A".repeat(43)}`).api.companies.list()).status).toBe(401);
    expect((await bearer("not-a-token").api.companies.list()).status).toBe(401);
  });
});

describe("DELETE /panel/api-tokens/{id}", () => {
  it("revokes (then the token gets 401), idempotently, and audits it", async () => {
    const { client, id } = await createTokenClient(app, a, { creator: owner.client });
    expect((await client.api.auth.me()).status).toBe(200);
    expect((await owner.client.api.apiTokens.revoke({ params: { id } })).status).toBe(204);
    const revoked = await client.api.auth.me();
    expect(revoked.status).toBe(401);
    expect(revoked.error.code).toBe("auth.invalid_token");
    expect((await owner.client.api.apiTokens.revoke({ params: { id } })).status).toBe(204);
    const listed = (await owner.client.api.apiTokens.list()).body.find((t) => t.id === id);
    expect(listed!.revokedAt).not.toBeNull();
    const audits = await app.deps.db.select().from(tables.auditLog).where(eq(tables.auditLog.entityId, id));
    expect(audits.map((r) => r.action).sort()).toEqual(["api_token.created", "api_token.revoked"]);
  });

  it("answers api_token.not_found for unknown and out-of-scope tokens, 403 below Admin", async () => {
    const unknown = await owner.client.api.apiTokens.revoke({ params: { id: crypto.randomUUID() } });
    expect(unknown.status).toBe(404);
    expect(unknown.error.code).toBe("api_token.not_found");
    const { id } = await createTokenClient(app, b, { creator: op });
    const outside = await owner.client.api.apiTokens.revoke({ params: { id } });
    expect(outside.status).toBe(404);
    expect(outside.error.code).toBe("api_token.not_found");
    const mine = await createTokenClient(app, a, { creator: owner.client });
    const viewer = await createMember(app, { companyId: a.id, role: "viewer" });
    const denied = await viewer.client.api.apiTokens.revoke({ params: { id: mine.id } });
    expect(denied.status).toBe(403);
    expect(denied.error.code).toBe("auth.forbidden");
    expect((await owner.client.request("DELETE", `${base}/not-a-uuid`)).status).toBe(400);
  });
});

describe("GET /panel/api-tokens", () => {
  it("lists the visible subtree only; a companyId filter outside it is auth.company_out_of_scope", async () => {
    const inB = await createTokenClient(app, b, { creator: op });
    const ids = (await owner.client.api.apiTokens.list()).body.map((t) => t.companyId);
    expect(ids.every((c) => c === a.id)).toBe(true);
    expect((await op.api.apiTokens.list()).body.map((t) => t.id)).toContain(inB.id);
    const filtered = (await op.api.apiTokens.list({ query: { companyId: b.id } })).body;
    expect(filtered.map((t) => t.id)).toContain(inB.id);
    expect(filtered.every((t) => t.companyId === b.id)).toBe(true);
    const out = await owner.client.api.apiTokens.list({ query: { companyId: b.id } });
    expect(out.status).toBe(403);
    expect(out.error.code).toBe("auth.company_out_of_scope");
    expect(
      (await owner.client.api.apiTokens.list({ query: { companyId: crypto.randomUUID() } })).error.code,
    ).toBe("auth.company_out_of_scope");
  });
});
