import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR, startTestApp, type TestApp } from "../../testing/index.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("POST /panel/auth/login", () => {
  it("signs in, sets an HttpOnly SameSite=Lax cookie and serves /me", async () => {
    const client = await app.client();
    const res = await client.post("/api/v1/panel/auth/login", OPERATOR);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      twoFactorRequired: false,
      ticket: null,
      user: { email: OPERATOR.email, isOperator: true },
    });
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^service\.auth=[\w-]{40,};/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Max-Age=604800");
    expect(cookie).not.toContain("Secure");
    const me = await client.get("/api/v1/panel/auth/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      email: OPERATOR.email,
      isOperator: true,
      totpEnabled: false,
      companyId: null,
      role: null,
    });
  });

  it("refuses a wrong password and an unknown email with the same 401", async () => {
    const client = await app.client();
    const wrong = await client.post("/api/v1/panel/auth/login", {
      ...OPERATOR,
      password: "not-the-password",
    });
    const unknown = await client.post("/api/v1/panel/auth/login", {
      email: "nobody@example.com",
      password: "whatever1",
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      code: "auth.invalid_credentials",
      message: expect.any(String),
      status: 401,
    });
    expect(unknown.body).toEqual(wrong.body);
    expect(client.cookie).toBeUndefined();
  });
});
