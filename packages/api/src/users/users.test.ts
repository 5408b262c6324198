import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR, startTestApp, TestClient, type TestApp } from "../testing/index.ts";
import {
  createCompany,
  createMember,
  createTokenClient,
  MEMBER_PASSWORD,
  uniqueEmail,
  type CompanyBody,
  type Member,
} from "../testing/fixtures.ts";

const base = "/api/v1/panel/users";
const DAY = 86_400_000;
let app: TestApp;
let op: TestClient;
let root: CompanyBody;
let a: CompanyBody;
let a1: CompanyBody;
let b: CompanyBody;
let owner: Member;
let admin: Member;

beforeAll(async () => {
  app = await startTestApp();
  op = await app.client({ signIn: true });
  root = await createCompany(op, null);
  a = await createCompany(op, root.id, { name: "Company A" });
  a1 = await createCompany(op, a.id);
  b = await createCompany(op, root.id);
  owner = await createMember(app, { companyId: a.id, role: "owner" });
  admin = await createMember(app, { companyId: a.id, role: "admin" });
});
afterAll(() => app.close());

const inviteLink = async (email: string) => {
  const mail = await app.smtp.waitFor(email);
  const match = /\/accept-invite\?token=([\w-]+)/.exec(mail.text);
  expect(match).not.toBeNull();
  expect(mail.text).toContain(`${app.url}/accept-invite?token=`);
  return match![1]!;
};

describe("POST /panel/users/invite", () => {
  it("creates a pending user and mails a link that accept-invite takes", async () => {
    const email = uniqueEmail("invitee");
    const res = await admin.client.api.users.invite({
      body: { email: email.toUpperCase(), companyId: a1.id, role: "viewer", displayName: "New Person" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      email,
      status: "pending",
      companyId: a1.id,
      role: "viewer",
      isOperator: false,
      displayName: "New Person",
      lastLoginAt: null,
    });
    const token = await inviteLink(email);
    const preview = await new TestClient(app.url).api.auth.invitation({ params: { token } });
    expect(preview.body).toMatchObject({ email, role: "viewer" });
    expect(new Date(preview.body.expiresAt).getTime() - app.clock.now().getTime()).toBe(7 * DAY);
    const invitee = new TestClient(app.url);
    const accepted = await invitee.api.auth.acceptInvite({
      body: { token, password: "a-new-password" },
    });
    expect(accepted.status).toBe(200);
    expect((await invitee.api.companies.get({ params: { id: a1.id } })).status).toBe(200);
    const [audit] = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, res.body.id));
    expect(audit).toMatchObject({ action: "user.invited", actorEmail: admin.email });
  });

  it("lets the link lapse after 7 days", async () => {
    const email = uniqueEmail("late");
    await admin.client.api.users.invite({ body: { email, companyId: a.id, role: "viewer" } });
    const token = await inviteLink(email);
    app.clock.advance(7 * DAY + 1000);
    const preview = await new TestClient(app.url).api.auth.invitation({ params: { token } });
    expect(preview.status).toBe(404);
    expect(preview.error.code).toBe("invitation.not_found");
    // The jump also ended the 7-day sessions of the members this file shares.
    await Promise.all([
      owner.client.login(owner.email, MEMBER_PASSWORD),
      admin.client.login(admin.email, MEMBER_PASSWORD),
      op.login(OPERATOR.email, OPERATOR.password),
    ]);
  });

  it("needs Owner to grant the owner role", async () => {
    const denied = await admin.client.api.users.invite({
      body: { email: uniqueEmail(), companyId: a.id, role: "owner" },
    });
    expect(denied.status).toBe(403);
    expect(denied.error.code).toBe("auth.forbidden");
    const ok = await owner.client.api.users.invite({
      body: { email: uniqueEmail(), companyId: a.id, role: "owner" },
    });
    expect(ok.status).toBe(201);
  });

  it("refuses an existing active account, an archived company, another subtree and bad bodies", async () => {
    const taken = await admin.client.api.users.invite({
      body: { email: owner.email, companyId: a.id, role: "viewer" },
    });
    expect(taken.status).toBe(409);
    expect(taken.error.code).toBe("user.already_exists");
    const archived = await createCompany(op, a.id);
    await op.api.companies.archive({ params: { id: archived.id } });
    const toArchived = await admin.client.api.users.invite({
      body: { email: uniqueEmail(), companyId: archived.id, role: "viewer" },
    });
    expect(toArchived.error.code).toBe("company.not_active");
    const outside = await admin.client.api.users.invite({
      body: { email: uniqueEmail(), companyId: b.id, role: "viewer" },
    });
    expect(outside.status).toBe(404);
    // Bodies the schema refuses, sent as they are.
    for (const body of [
      { email: "not-mail", companyId: a.id, role: "viewer" },
      { email: uniqueEmail(), companyId: a.id, role: "god" },
      { email: uniqueEmail(), role: "viewer" },
    ]) {
      const res = await admin.client.post(`${base}/invite`, body);
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("request.invalid");
    }
  });

  it("re-invites a revoked account of the subtree, but not one of another subtree", async () => {
    const gone = await createMember(app, { companyId: a1.id, role: "viewer" });
    await admin.client.api.users.deactivate({ params: { id: gone.id } });
    const again = await admin.client.api.users.invite({
      body: { email: gone.email, companyId: a.id, role: "admin" },
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: gone.id, status: "pending", companyId: a.id, role: "admin" });
    const elsewhere = await createMember(app, { companyId: b.id, role: "viewer" });
    await op.api.users.deactivate({ params: { id: elsewhere.id } });
    const steal = await admin.client.api.users.invite({
      body: { email: elsewhere.email, companyId: a.id, role: "viewer" },
    });
    expect(steal.status).toBe(409);
  });
});

describe("POST /panel/users/{id}/resend-invite", () => {
  it("mails a new link and kills the old one", async () => {
    const email = uniqueEmail("resend");
    const invited = await admin.client.api.users.invite({ body: { email, companyId: a.id, role: "viewer" } });
    const first = await inviteLink(email);
    expect((await admin.client.api.users.resendInvite({ params: { id: invited.body.id } })).status).toBe(204);
    const second = await inviteLink(email);
    expect(second).not.toBe(first);
    const anonymous = new TestClient(app.url);
    expect((await anonymous.api.auth.invitation({ params: { token: first } })).status).toBe(404);
    expect((await anonymous.api.auth.invitation({ params: { token: second } })).status).toBe(200);
  });

  it("refuses active users, unknown ids, other subtrees, and owner invitations for an Admin", async () => {
    const active = await admin.client.api.users.resendInvite({ params: { id: admin.id } });
    expect(active.status).toBe(409);
    expect(active.error.code).toBe("user.not_pending");
    expect(
      (await admin.client.api.users.resendInvite({ params: { id: crypto.randomUUID() } })).error.code,
    ).toBe("user.not_found");
    const inB = await op.api.users.invite({
      body: { email: uniqueEmail(), companyId: b.id, role: "viewer" },
    });
    expect((await admin.client.api.users.resendInvite({ params: { id: inB.body.id } })).status).toBe(404);
    const ownerInvite = await owner.client.api.users.invite({
      body: { email: uniqueEmail(), companyId: a.id, role: "owner" },
    });
    expect((await admin.client.api.users.resendInvite({ params: { id: ownerInvite.body.id } })).status).toBe(
      403,
    );
    expect((await owner.client.api.users.resendInvite({ params: { id: ownerInvite.body.id } })).status).toBe(
      204,
    );
  });
});

describe("GET /panel/users", () => {
  it("lists users of a company and its subtree (Admin), and scopes filters", async () => {
    const deep = await createMember(app, { companyId: a1.id, role: "viewer" });
    const inB = await createMember(app, { companyId: b.id, role: "viewer" });
    const res = await admin.client.api.users.list({ query: { companyId: a.id } });
    expect(res.status).toBe(200);
    const ids = res.body.map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([owner.id, admin.id, deep.id]));
    expect(ids).not.toContain(inB.id);
    const narrow = (await admin.client.api.users.list({ query: { companyId: a1.id } })).body.map((u) => u.id);
    expect(narrow).toContain(deep.id);
    expect(narrow).not.toContain(owner.id);
    const unfiltered = (await admin.client.api.users.list()).body.map((u) => u.id);
    expect(unfiltered).toEqual(expect.arrayContaining([owner.id, deep.id]));
    expect(unfiltered).not.toContain(inB.id);
    expect((await op.api.users.list()).body.map((u) => u.id)).toEqual(expect.arrayContaining([inB.id]));

    const outside = await admin.client.api.users.list({ query: { companyId: b.id } });
    expect(outside.status).toBe(403);
    expect(outside.error.code).toBe("auth.company_out_of_scope");
    const viewer = await createMember(app, { companyId: a.id, role: "viewer" });
    expect((await viewer.client.api.users.list({ query: { companyId: a.id } })).error.code).toBe(
      "auth.forbidden",
    );
    expect((await admin.client.get(`${base}?companyId=nope`)).error.code).toBe("request.invalid");
  });
});

describe("DELETE /panel/users/{id}", () => {
  it("revokes the account, ends its sessions and revokes the tokens it created", async () => {
    const victim = await createMember(app, { companyId: a1.id, role: "admin" });
    const token = await createTokenClient(app, a1, { creator: victim.client });
    expect((await token.client.api.auth.me()).status).toBe(200);
    expect((await admin.client.api.users.deactivate({ params: { id: victim.id } })).status).toBe(204);
    expect((await victim.client.api.auth.me()).status).toBe(401);
    expect((await token.client.api.auth.me()).status).toBe(401);
    const listed = (await admin.client.api.users.list({ query: { companyId: a1.id } })).body.find(
      (u) => u.id === victim.id,
    );
    expect(listed!.status).toBe("revoked");
    const relogin = await new TestClient(app.url).api.auth.login({
      body: { email: victim.email, password: MEMBER_PASSWORD },
    });
    expect(relogin.status).toBe(401);
    expect((await admin.client.api.users.deactivate({ params: { id: victim.id } })).status).toBe(204);
    const audits = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, victim.id));
    expect(audits.filter((r) => r.action === "user.deactivated")).toHaveLength(1);
  });

  it("needs an operator for an operator, and keeps the last active operator", async () => {
    const promoted = await createMember(app, { companyId: a.id, role: "admin", isOperator: true });
    const denied = await owner.client.api.users.deactivate({ params: { id: promoted.id } });
    expect(denied.status).toBe(403);
    expect(denied.error.code).toBe("auth.operator_required");
    const [bootstrap] = await app.deps.db
      .select()
      .from(tables.users)
      .where(eq(tables.users.email, "root@example.com"));
    expect((await owner.client.api.users.deactivate({ params: { id: bootstrap!.id } })).status).toBe(404);
    expect((await op.api.users.deactivate({ params: { id: promoted.id } })).status).toBe(204);
    const last = await op.api.users.deactivate({ params: { id: bootstrap!.id } });
    expect(last.status).toBe(409);
    expect(last.error.code).toBe("operator.last_operator");
  });

  it("answers 404 outside the subtree and 403 below Admin", async () => {
    const inB = await createMember(app, { companyId: b.id, role: "viewer" });
    expect((await admin.client.api.users.deactivate({ params: { id: inB.id } })).error.code).toBe(
      "user.not_found",
    );
    const viewer = await createMember(app, { companyId: a.id, role: "viewer" });
    const peer = await createMember(app, { companyId: a1.id, role: "viewer" });
    expect((await viewer.client.api.users.deactivate({ params: { id: peer.id } })).error.code).toBe(
      "auth.forbidden",
    );
    expect((await admin.client.request("DELETE", `${base}/not-a-uuid`)).status).toBe(400);
  });
});
