import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, trpcError, type TestApp, type TestClient } from "../testing/index.ts";
import { createCompany, createMember, uniqueEmail, uniqueSlug } from "../testing/fixtures.ts";

let app: TestApp;
let op: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  op = await app.client({ signIn: true });
});
afterAll(() => app.close());

describe("tRPC companies, users, apiTokens, audit", () => {
  it("runs the company operations through the same core and policy", async () => {
    const companies = op.trpc.companies;
    const root = await companies.create.mutate({ name: "T", slug: uniqueSlug() });
    const child = await companies.create.mutate({ name: "C", slug: "c", parentId: root.id });
    expect(child).toMatchObject({ parentId: root.id, depth: 1 });
    expect((await companies.get.query({ id: child.id })).id).toBe(child.id);
    expect(await companies.children.query({ id: root.id })).toHaveLength(1);
    expect(await companies.subtree.query({ id: root.id })).toHaveLength(2);
    expect((await companies.list.query()).map((c) => c.id)).toContain(child.id);
    const moved = await companies.reparent.mutate({ id: child.id, newParentId: null });
    expect(moved).toMatchObject({ parentId: null, depth: 0 });
    await companies.archive.mutate({ id: child.id });
    expect((await companies.get.query({ id: child.id })).status).toBe("Archived");

    const bad = await trpcError(companies.create.mutate({ name: "x", slug: "Bad" }));
    expect(bad.data.httpStatus).toBe(400);
    expect(bad.data.appCode).toBe("company.invalid_slug");
  });

  it("applies the same scoping: 404 outside the subtree, 403 for a root company", async () => {
    const a = await createCompany(op, null);
    const b = await createCompany(op, null);
    const member = (await createMember(app, { companyId: a.id, role: "admin" })).client.trpc;
    const hidden = await trpcError(member.companies.get.query({ id: b.id }));
    expect(hidden.data.httpStatus).toBe(404);
    expect(hidden.data).toMatchObject({ code: "NOT_FOUND", appCode: "company.not_found" });
    const root = await trpcError(member.companies.create.mutate({ name: "r", slug: uniqueSlug() }));
    expect(root.data).toMatchObject({ code: "FORBIDDEN", appCode: "auth.operator_required" });
    const users = await trpcError(member.users.list.query({ companyId: b.id }));
    expect(users.data.appCode).toBe("auth.company_out_of_scope");
    expect((await trpcError(member.audit.list.query({ limit: 10 }))).data.httpStatus).toBe(403);
  });

  it("runs users, API token and audit operations", async () => {
    const company = await createCompany(op, null);
    const email = uniqueEmail("trpc");
    const invited = await op.trpc.users.invite.mutate({ email, companyId: company.id, role: "admin" });
    expect(invited).toMatchObject({ email, status: "pending" });
    await app.smtp.waitFor(email);
    await op.trpc.users.resendInvite.mutate({ id: invited.id });
    await app.smtp.waitFor(email);
    expect((await op.trpc.users.list.query({ companyId: company.id })).map((u) => u.id)).toEqual([
      invited.id,
    ]);
    await op.trpc.users.deactivate.mutate({ id: invited.id });

    const created = await op.trpc.apiTokens.create.mutate({
      name: "t",
      companyId: company.id,
      expiresInDays: 5,
    });
    expect(created.secret).toMatch(/^svc_pat_/);
    expect(await op.trpc.apiTokens.list.query({ companyId: company.id })).toHaveLength(1);
    await op.trpc.apiTokens.revoke.mutate({ id: created.token.id });
    const badExpiry = await trpcError(
      op.trpc.apiTokens.create.mutate({ name: "t", companyId: company.id, expiresInDays: 0 }),
    );
    expect(badExpiry.data.appCode).toBe("api_token.invalid_expiry");

    const audit = await op.trpc.audit.list.query({ entityId: created.token.id });
    expect(audit.map((r) => r.action).sort()).toEqual(["api_token.created", "api_token.revoked"]);
  });
});
