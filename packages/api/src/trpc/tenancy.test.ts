import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createCompany, createMember, uniqueEmail, uniqueSlug } from "../testing/fixtures.ts";

let app: TestApp;
let op: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  op = await app.client({ signIn: true });
});
afterAll(() => app.close());

const query = (client: TestClient, path: string, input?: unknown) =>
  client.get(
    `/trpc/${path}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`}`,
  );
const mutate = (client: TestClient, path: string, input: unknown) =>
  client.post(`/trpc/${path}`, { json: input });
const data = (res: { body: { result: { data: { json: unknown } } } }) => res.body.result.data.json as any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("tRPC companies, users, apiTokens, audit", () => {
  it("runs the company operations through the same core and policy", async () => {
    const root = data(await mutate(op, "companies.create", { name: "T", slug: uniqueSlug() }));
    const child = data(await mutate(op, "companies.create", { name: "C", slug: "c", parentId: root.id }));
    expect(child).toMatchObject({ parentId: root.id, depth: 1 });
    expect(data(await query(op, "companies.get", { id: child.id })).id).toBe(child.id);
    expect(data(await query(op, "companies.children", { id: root.id }))).toHaveLength(1);
    expect(data(await query(op, "companies.subtree", { id: root.id }))).toHaveLength(2);
    expect(data(await query(op, "companies.list")).map((c: { id: string }) => c.id)).toContain(child.id);
    const moved = data(await mutate(op, "companies.reparent", { id: child.id, newParentId: null }));
    expect(moved).toMatchObject({ parentId: null, depth: 0 });
    const archived = await mutate(op, "companies.archive", { id: child.id });
    expect(archived.status).toBe(200);
    expect(data(await query(op, "companies.get", { id: child.id })).status).toBe("Archived");

    const bad = await mutate(op, "companies.create", { name: "x", slug: "Bad" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.json.data.appCode).toBe("company.invalid_slug");
  });

  it("applies the same scoping: 404 outside the subtree, 403 for a root company", async () => {
    const a = await createCompany(op, null);
    const b = await createCompany(op, null);
    const member = await createMember(app, { companyId: a.id, role: "admin" });
    const hidden = await query(member.client, "companies.get", { id: b.id });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.json.data).toMatchObject({ code: "NOT_FOUND", appCode: "company.not_found" });
    const root = await mutate(member.client, "companies.create", { name: "r", slug: uniqueSlug() });
    expect(root.body.error.json.data).toMatchObject({ code: "FORBIDDEN", appCode: "auth.operator_required" });
    const users = await query(member.client, "users.list", { companyId: b.id });
    expect(users.body.error.json.data.appCode).toBe("auth.company_out_of_scope");
    expect((await query(member.client, "audit.list", { limit: 10 })).status).toBe(403);
  });

  it("runs users, API token and audit operations", async () => {
    const company = await createCompany(op, null);
    const email = uniqueEmail("trpc");
    const invited = data(await mutate(op, "users.invite", { email, companyId: company.id, role: "admin" }));
    expect(invited).toMatchObject({ email, status: "pending" });
    await app.smtp.waitFor(email);
    expect((await mutate(op, "users.resendInvite", { id: invited.id })).status).toBe(200);
    await app.smtp.waitFor(email);
    expect(
      data(await query(op, "users.list", { companyId: company.id })).map((u: { id: string }) => u.id),
    ).toEqual([invited.id]);
    expect((await mutate(op, "users.deactivate", { id: invited.id })).status).toBe(200);

    const created = data(
      await mutate(op, "apiTokens.create", { name: "t", companyId: company.id, expiresInDays: 5 }),
    );
    expect(created.secret).toMatch(/^svc_pat_/);
    expect(data(await query(op, "apiTokens.list", { companyId: company.id }))).toHaveLength(1);
    expect((await mutate(op, "apiTokens.revoke", { id: created.token.id })).status).toBe(200);
    const badExpiry = await mutate(op, "apiTokens.create", {
      name: "t",
      companyId: company.id,
      expiresInDays: 0,
    });
    expect(badExpiry.body.error.json.data.appCode).toBe("api_token.invalid_expiry");

    const audit = data(await query(op, "audit.list", { entityId: created.token.id }));
    expect(audit.map((r: { action: string }) => r.action).sort()).toEqual([
      "api_token.created",
      "api_token.revoked",
    ]);
  });
});
