import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import { startTestApp, type BodyOf, type TestApp, type TestClient } from "../testing/index.ts";
import { createCompany, createMember, uniqueSlug } from "../testing/fixtures.ts";

const base = "/api/v1/panel/companies";
const create = (client: TestClient, body: BodyOf<typeof operations.companies.create>) =>
  client.api.companies.create({ body });
const reparent = (client: TestClient, id: string, newParentId: string | null) =>
  client.api.companies.reparent({ params: { id }, body: { newParentId } });
let app: TestApp;
let op: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  op = await app.client({ signIn: true });
});
afterAll(() => app.close());

/** Every row's path is its parent's path plus its id, and its depth one more: no torn or cyclic paths. */
async function expectConsistentTree() {
  const rows = await app.deps.db.select().from(tables.companies);
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const row of rows) {
    const parent = row.parentId ? byId.get(row.parentId) : undefined;
    expect(row.path).toBe(`${parent?.path ?? "/"}${row.id}/`);
    expect(row.depth).toBe(parent ? parent.depth + 1 : 0);
  }
}

describe("POST /panel/companies", () => {
  it("creates a root and a child with path and depth, and audits it", async () => {
    const root = await create(op, { name: "Acme", slug: "acme", contactEmail: "Ops@Acme.example" });
    expect(root.status).toBe(201);
    expect(root.body).toMatchObject({
      name: "Acme",
      slug: "acme",
      parentId: null,
      depth: 0,
      status: "Active",
      contactEmail: "ops@acme.example",
    });
    expect(root.body.path).toBe(`/${root.body.id}/`);
    const child = await create(op, { name: "Acme EU", slug: "eu", parentId: root.body.id });
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({
      parentId: root.body.id,
      depth: 1,
      path: `${root.body.path}${child.body.id}/`,
    });
    const [audit] = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, child.body.id));
    expect(audit).toMatchObject({
      action: "company.created",
      actorEmail: "root@example.com",
      entityType: "company",
    });
    expect(audit!.ipAddress).toBeTruthy();
  });

  it.each([
    ["empty", ""],
    ["65 characters", "a".repeat(65)],
    ["uppercase", "Acme"],
    ["leading hyphen", "-acme"],
    ["trailing hyphen", "acme-"],
    ["unicode", "café"],
    ["underscore", "a_b"],
    ["space", "a b"],
  ])("refuses a slug that is %s with company.invalid_slug", async (_label, slug) => {
    const res = await create(op, { name: "X", slug });
    expect(res.status).toBe(400);
    expect(res.error).toEqual({ code: "company.invalid_slug", message: expect.any(String), status: 400 });
  });

  it("accepts the boundary slugs: one character and 64 characters", async () => {
    const parent = await createCompany(op, null);
    expect((await create(op, { name: "a", slug: "a", parentId: parent.id })).status).toBe(201);
    const long = `b${"-".repeat(62)}c`;
    expect((await create(op, { name: "long", slug: long, parentId: parent.id })).status).toBe(201);
  });

  it("refuses a duplicate sibling slug (roots too), but allows it under another parent", async () => {
    const slug = uniqueSlug("dup");
    const a = await createCompany(op, null, { slug });
    const again = await create(op, { name: "again", slug });
    expect(again.status).toBe(409);
    expect(again.error.code).toBe("company.slug_taken");
    await createCompany(op, a.id, { slug: "shared" });
    const sibling = await create(op, { name: "x", slug: "shared", parentId: a.id });
    expect(sibling.error.code).toBe("company.slug_taken");
    const b = await createCompany(op, null);
    expect((await create(op, { name: "x", slug: "shared", parentId: b.id })).status).toBe(201);
  });

  it("answers 409 to one of two racing creates of the same slug", async () => {
    const parent = await createCompany(op, null);
    const results = await Promise.all(
      [1, 2, 3].map(() => create(op, { name: "race", slug: "race", parentId: parent.id })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(results.filter((r) => r.status === 409).every((r) => r.error.code === "company.slug_taken")).toBe(
      true,
    );
  });

  it("rejects bad bodies and unknown parents", async () => {
    // Bodies the schema refuses, sent as they are.
    expect((await op.post(base, { slug: "no-name" })).error.code).toBe("request.invalid");
    expect((await op.post(base, { name: "x", slug: "x", parentId: "nope" })).status).toBe(400);
    expect((await op.post(base, { name: "x", slug: "x", contactEmail: "not-mail" })).status).toBe(400);
    const unknown = await create(op, { name: "x", slug: "x", parentId: crypto.randomUUID() });
    expect(unknown.status).toBe(404);
    expect(unknown.error.code).toBe("company.not_found");
  });

  it("needs an operator for a root company and Admin on the parent for a child", async () => {
    const root = await createCompany(op, null);
    const admin = await createMember(app, { companyId: root.id, role: "admin" });
    const viewer = await createMember(app, { companyId: root.id, role: "viewer" });
    const rootAttempt = await create(admin.client, { name: "r", slug: uniqueSlug() });
    expect(rootAttempt.status).toBe(403);
    expect(rootAttempt.error.code).toBe("auth.operator_required");
    expect((await create(admin.client, { name: "c", slug: "c", parentId: root.id })).status).toBe(201);
    const denied = await create(viewer.client, { name: "d", slug: "d", parentId: root.id });
    expect(denied.status).toBe(403);
    expect(denied.error.code).toBe("auth.forbidden");
  });
});

describe("GET /panel/companies, /{id}, /{id}/children, /{id}/subtree", () => {
  it("lists the visible tree and reads one node, its children and its subtree", async () => {
    const root = await createCompany(op, null);
    const a = await createCompany(op, root.id);
    const a1 = await createCompany(op, a.id);
    const a2 = await createCompany(op, a.id);
    const a1x = await createCompany(op, a1.id);
    const b = await createCompany(op, root.id);
    const member = await createMember(app, { companyId: a.id, role: "viewer" });

    const visible = await member.client.api.companies.list();
    expect(visible.status).toBe(200);
    expect(visible.body.map((c) => c.id).sort()).toEqual([a.id, a1.id, a2.id, a1x.id].sort());
    expect((await op.api.companies.list()).body.map((c) => c.id)).toEqual(
      expect.arrayContaining([root.id, a.id, b.id]),
    );

    expect((await member.client.api.companies.get({ params: { id: a1.id } })).body).toMatchObject({
      id: a1.id,
      depth: 2,
    });
    const children = await member.client.api.companies.children({ params: { id: a.id } });
    expect(children.body.map((c) => c.id).sort()).toEqual([a1.id, a2.id].sort());
    const subtree = await member.client.api.companies.subtree({ params: { id: a.id } });
    expect(subtree.body.map((c) => c.id)[0]).toBe(a.id);
    expect(subtree.body).toHaveLength(4);
  });

  it("answers 404 for unknown and out-of-scope companies, 400 for a malformed id", async () => {
    const root = await createCompany(op, null);
    const a = await createCompany(op, root.id);
    const member = await createMember(app, { companyId: a.id, role: "owner" });
    const { get, children, subtree } = member.client.api.companies;
    for (const read of [get, children, subtree]) {
      const res = await read({ params: { id: root.id } });
      expect(res.status).toBe(404);
      expect(res.error.code).toBe("company.not_found");
    }
    expect((await op.api.companies.get({ params: { id: crypto.randomUUID() } })).status).toBe(404);
    expect((await op.get(`${base}/not-a-uuid`)).error.code).toBe("request.invalid");
  });

  it("can serve subtree queries from the text_pattern_ops path index", async () => {
    // A handful of rows makes a scan cheapest, so scans are switched off to see that the index applies.
    await app.deps.db.transaction(async (tx) => {
      await tx.execute("SET LOCAL enable_seqscan = off");
      const plan = await tx.execute(
        `EXPLAIN SELECT * FROM companies WHERE path LIKE '/${crypto.randomUUID()}/%'`,
      );
      expect(JSON.stringify(plan)).toContain("companies_subtree_by_path");
    });
  });
});

describe("POST /panel/companies/{id}/reparent", () => {
  it("moves a node and rebuilds path and depth of every descendant", async () => {
    const r1 = await createCompany(op, null);
    const r2 = await createCompany(op, null);
    const x = await createCompany(op, r1.id);
    const y = await createCompany(op, x.id);
    const z = await createCompany(op, y.id);
    const t = await createCompany(op, r2.id);
    const moved = await reparent(op, x.id, t.id);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: x.id, parentId: t.id, depth: 2, path: `${t.path}${x.id}/` });
    expect((await op.api.companies.get({ params: { id: z.id } })).body).toMatchObject({
      path: `${t.path}${x.id}/${y.id}/${z.id}/`,
      depth: 4,
    });
    const toRoot = await reparent(op, y.id, null);
    expect(toRoot.body).toMatchObject({ parentId: null, depth: 0, path: `/${y.id}/` });
    expect((await op.api.companies.get({ params: { id: z.id } })).body).toMatchObject({
      path: `/${y.id}/${z.id}/`,
      depth: 1,
    });
    await expectConsistentTree();
  });

  it("refuses a move under itself or its descendant", async () => {
    const x = await createCompany(op, null);
    const y = await createCompany(op, x.id);
    const z = await createCompany(op, y.id);
    for (const target of [x.id, y.id, z.id]) {
      const res = await reparent(op, x.id, target);
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("company.invalid_parent");
    }
  });

  it("refuses an archived parent, a taken slug, unknown ids and a missing body", async () => {
    const p = await createCompany(op, null);
    const archived = await createCompany(op, null);
    await op.api.companies.archive({ params: { id: archived.id } });
    const n = await createCompany(op, null, { slug: uniqueSlug("n") });
    expect((await reparent(op, n.id, archived.id)).error.code).toBe("company.not_active");
    await createCompany(op, p.id, { slug: n.slug });
    const clash = await reparent(op, n.id, p.id);
    expect(clash.status).toBe(409);
    expect(clash.error.code).toBe("company.slug_taken");
    expect((await reparent(op, n.id, crypto.randomUUID())).status).toBe(404);
    expect((await reparent(op, crypto.randomUUID(), null)).status).toBe(404);
    // A body the schema refuses, sent as it is.
    expect((await op.post(`${base}/${n.id}/reparent`, {})).error.code).toBe("request.invalid");
  });

  it("needs an operator", async () => {
    const root = await createCompany(op, null);
    const child = await createCompany(op, root.id);
    const owner = await createMember(app, { companyId: root.id, role: "owner" });
    const res = await reparent(owner.client, child.id, null);
    expect(res.status).toBe(403);
    expect(res.error.code).toBe("auth.operator_required");
  });

  it("never makes a cycle when two reparents race (A under B, B under A)", async () => {
    for (let round = 0; round < 5; round++) {
      const a = await createCompany(op, null);
      const b = await createCompany(op, null);
      await createCompany(op, a.id);
      await createCompany(op, b.id);
      const [first, second] = await Promise.all([reparent(op, a.id, b.id), reparent(op, b.id, a.id)]);
      expect([first.status, second.status].sort()).toEqual([200, 400]);
      expect([first, second].find((r) => r.status === 400)!.error.code).toBe("company.invalid_parent");
    }
    await expectConsistentTree();
  });

  it("keeps every path consistent under many concurrent moves and creates", async () => {
    const root = await createCompany(op, null);
    const nodes = [root];
    for (let i = 0; i < 12; i++) nodes.push(await createCompany(op, nodes[Math.floor(i / 2)]!.id));
    const pick = (i: number) => nodes[(i * 7 + 3) % nodes.length]!;
    await Promise.all([
      ...Array.from({ length: 16 }, (_, i) => reparent(op, pick(i).id, pick(i + 5).id)),
      ...Array.from({ length: 16 }, (_, i) =>
        create(op, { name: "c", slug: uniqueSlug("cc"), parentId: pick(i + 2).id }),
      ),
    ]);
    await expectConsistentTree();
  });
});

describe("DELETE /panel/companies/{id}", () => {
  it("archives (Owner), stays readable, refuses children, and is idempotent", async () => {
    const root = await createCompany(op, null);
    const node = await createCompany(op, root.id);
    const owner = await createMember(app, { companyId: root.id, role: "owner" });
    const admin = await createMember(app, { companyId: root.id, role: "admin" });
    const denied = await admin.client.api.companies.archive({ params: { id: node.id } });
    expect(denied.status).toBe(403);
    expect(denied.error.code).toBe("auth.forbidden");
    expect((await owner.client.api.companies.archive({ params: { id: node.id } })).status).toBe(204);
    expect((await owner.client.api.companies.archive({ params: { id: node.id } })).status).toBe(204);
    expect((await admin.client.api.companies.get({ params: { id: node.id } })).body.status).toBe("Archived");
    const child = await create(op, { name: "c", slug: "c", parentId: node.id });
    expect(child.status).toBe(400);
    expect(child.error.code).toBe("company.not_active");
    const audits = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, node.id));
    expect(audits.filter((a) => a.action === "company.archived")).toHaveLength(1);
    expect((await op.api.companies.archive({ params: { id: crypto.randomUUID() } })).status).toBe(404);
  });
});
