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
  it.each([
    ["GET", USERS, undefined],
    ["POST", `${USERS}/invite`, { email: "x@example.com" }],
    ["POST", `${USERS}/00000000-0000-4000-8000-000000000000/promote`, undefined],
    ["POST", `${USERS}/00000000-0000-4000-8000-000000000000/demote`, undefined],
  ])("%s %s answers 403 auth.operator_required", async (method, path, body) => {
    const res = await regular.request(method, path, body);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: "auth.operator_required", message: expect.any(String), status: 403 });
  });

  it("without a session answers 401", async () => {
    const res = await (await app.client()).get(USERS);
    expect(res.status).toBe(401);
  });
});

describe("GET /operator/users", () => {
  it("lists every operator account and no one else", async () => {
    const res = await operator.get(USERS);
    expect(res.status).toBe(200);
    expect(res.body.map((u: { email: string }) => u.email)).toEqual(["root@example.com"]);
    expect(res.body[0]).toMatchObject({ status: "active", totpEnabled: false });
  });
});

describe("POST /operator/users/invite", () => {
  it("creates a pending operator and mails an accept-invite link built on PUBLIC_BASE_URL", async () => {
    const res = await operator.post(`${USERS}/invite`, { email: "Second.Op@Example.com" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: "second.op@example.com", status: "pending", lastLoginAt: null });
    const mail = await app.smtp.waitFor("second.op@example.com");
    expect(mail.text).toMatch(new RegExp(`${app.url}/accept-invite\\?token=[\\w-]{40,}`));
    const list = await operator.get(USERS);
    expect(list.body.map((u: { email: string }) => u.email)).toContain("second.op@example.com");
  });

  it("answers 409 user.already_exists for an active account", async () => {
    const res = await operator.post(`${USERS}/invite`, { email: "regular@example.com" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("user.already_exists");
  });

  it("re-invites a pending account with a new link", async () => {
    const first = await operator.post(`${USERS}/invite`, { email: "twice@example.com" });
    const second = await operator.post(`${USERS}/invite`, { email: "twice@example.com" });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
  });

  it("rejects a bad email and an over-long display name", async () => {
    expect((await operator.post(`${USERS}/invite`, { email: "nope" })).status).toBe(400);
    const long = await operator.post(`${USERS}/invite`, {
      email: "ok@example.com",
      displayName: "x".repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/^body\.displayName/);
  });
});

describe("POST /operator/users/{id}/promote and /demote", () => {
  it("grants and revokes operator rights; demotion ends the user's sessions", async () => {
    const [user] = await app.deps.db
      .select()
      .from(tables.users)
      .where(eq(tables.users.email, "regular@example.com"));
    const promoted = await operator.post(`${USERS}/${user!.id}/promote`);
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: user!.id, email: "regular@example.com" });
    expect((await regular.get(USERS)).status).toBe(200);

    const demoted = await operator.post(`${USERS}/${user!.id}/demote`);
    expect(demoted.status).toBe(200);
    expect((await regular.get(USERS)).status).toBe(401);
    await regular.login("regular@example.com", MEMBER_PASSWORD);
    expect((await regular.get(USERS)).status).toBe(403);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const unknown = await operator.post(`${USERS}/00000000-0000-4000-8000-000000000000/promote`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("user.not_found");
    const malformed = await operator.post(`${USERS}/not-a-uuid/promote`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toMatch(/^path\.id/);
  });

  it("refuses to demote the last active operator", async () => {
    const me = await operator.get("/api/v1/panel/auth/me");
    const res = await operator.post(`${USERS}/${me.body.id}/demote`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("operator.last_operator");
  });
});
