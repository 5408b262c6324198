import { eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, MEMBER_PASSWORD } from "../testing/fixtures.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";

let app: TestApp;
let operator: TestClient;
let regular: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  regular = (await createMember(app, { email: "regular@example.com" })).client;
});
afterAll(() => app.close());

const USERS = "/api/v1/panel/operator/users";

describe("operator group, as a non-operator", () => {
  const id = "00000000-0000-4000-8000-000000000000";
  it.each([
    ["GET", USERS, () => regular.api.operator.users.list()],
    [
      "POST",
      `${USERS}/invite`,
      () => regular.api.operator.users.invite({ body: { email: "x@example.com" } }),
    ],
    ["POST", `${USERS}/${id}/promote`, () => regular.api.operator.users.promote({ params: { id } })],
    ["POST", `${USERS}/${id}/demote`, () => regular.api.operator.users.demote({ params: { id } })],
  ])("%s %s answers 403 auth.operator_required", async (_method, _path, call) => {
    const res = await call();
    expect(res.status).toBe(403);
    expect(res.error).toEqual({ code: "auth.operator_required", message: expect.any(String), status: 403 });
  });

  it("without a session answers 401", async () => {
    const res = await (await app.client()).api.operator.users.list();
    expect(res.status).toBe(401);
  });
});

describe("GET /operator/users", () => {
  it("lists every operator account and no one else", async () => {
    const res = await operator.api.operator.users.list();
    expect(res.status).toBe(200);
    expect(res.body.map((u) => u.email)).toEqual(["root@example.com"]);
    expect(res.body[0]).toMatchObject({ status: "active", totpEnabled: false });
  });
});

describe("POST /operator/users/invite", () => {
  it("creates a pending operator and mails an accept-invite link built on PUBLIC_BASE_URL", async () => {
    const res = await operator.api.operator.users.invite({ body: { email: "Second.Op@Example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: "second.op@example.com", status: "pending", lastLoginAt: null });
    const mail = await app.smtp.waitFor("second.op@example.com");
    expect(mail.text).toMatch(new RegExp(`${app.url}/accept-invite\\?token=[\\w-]{40,}`));
    const list = await operator.api.operator.users.list();
    expect(list.body.map((u) => u.email)).toContain("second.op@example.com");
  });

  it("answers 409 user.already_exists for an active account", async () => {
    const res = await operator.api.operator.users.invite({ body: { email: "regular@example.com" } });
    expect(res.status).toBe(409);
    expect(res.error.code).toBe("user.already_exists");
  });

  it("re-invites a pending account with a new link", async () => {
    const first = await operator.api.operator.users.invite({ body: { email: "twice@example.com" } });
    const second = await operator.api.operator.users.invite({ body: { email: "twice@example.com" } });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
  });

  it("rejects a bad email and an over-long display name", async () => {
    // Bodies the schema refuses, sent as they are.
    expect((await operator.post(`${USERS}/invite`, { email: "nope" })).status).toBe(400);
    const long = await operator.post(`${USERS}/invite`, {
      email: "ok@example.com",
      displayName: "x".repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.error.message).toMatch(/^body\.displayName/);
  });
});

describe("POST /operator/users/{id}/promote and /demote", () => {
  it("grants and revokes operator rights; demotion ends the user's sessions", async () => {
    const [user] = await app.deps.db
      .select()
      .from(tables.users)
      .where(eq(tables.users.email, "regular@example.com"));
    const promoted = await operator.api.operator.users.promote({ params: { id: user!.id } });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: user!.id, email: "regular@example.com" });
    expect((await regular.api.operator.users.list()).status).toBe(200);

    const demoted = await operator.api.operator.users.demote({ params: { id: user!.id } });
    expect(demoted.status).toBe(200);
    expect((await regular.api.operator.users.list()).status).toBe(401);
    await regular.login("regular@example.com", MEMBER_PASSWORD);
    expect((await regular.api.operator.users.list()).status).toBe(403);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const unknown = await operator.api.operator.users.promote({
      params: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.error.code).toBe("user.not_found");
    const malformed = await operator.post(`${USERS}/not-a-uuid/promote`);
    expect(malformed.status).toBe(400);
    expect(malformed.error.message).toMatch(/^path\.id/);
  });

  it("refuses to demote the last active operator", async () => {
    const me = await operator.api.auth.me();
    const res = await operator.api.operator.users.demote({ params: { id: me.body.id } });
    expect(res.status).toBe(409);
    expect(res.error.code).toBe("operator.last_operator");
  });
});
