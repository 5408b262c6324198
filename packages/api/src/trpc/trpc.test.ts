import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/index.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("/trpc", () => {
  it("answers auth.me for the session cookie, with superjson", async () => {
    const client = await app.client({ signIn: true });
    const res = await client.get("/trpc/auth.me");
    expect(res.status).toBe(200);
    expect(res.body.result.data.json).toMatchObject({ email: "root@example.com", isOperator: true });
  });

  it("maps domain errors to tRPC codes with the spec's code alongside", async () => {
    const anonymous = await app.client();
    const unauthenticated = await anonymous.get("/trpc/auth.me");
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.error.json.data).toMatchObject({
      code: "UNAUTHORIZED",
      appCode: "auth.unauthenticated",
    });
    expect(unauthenticated.body.error.json.data).not.toHaveProperty("stack");

    const operator = await app.client({ signIn: true });
    const conflict = await operator.post("/trpc/operator.users.invite", {
      json: { email: "root@example.com" },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.json.data).toMatchObject({ code: "CONFLICT", appCode: "user.already_exists" });

    const invalid = await operator.post("/trpc/operator.users.invite", { json: { email: "nope" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.json.data.appCode).toBe("request.invalid");
  });

  it("runs the same core operation as REST", async () => {
    const operator = await app.client({ signIn: true });
    const invited = await operator.post("/trpc/operator.users.invite", {
      json: { email: "via-trpc@example.com" },
    });
    expect(invited.status).toBe(200);
    expect(invited.body.result.data.json).toMatchObject({ email: "via-trpc@example.com", status: "pending" });
    const rest = await operator.get("/api/v1/panel/operator/users");
    expect(rest.body.map((u: { email: string }) => u.email)).toContain("via-trpc@example.com");
    await app.smtp.waitFor("via-trpc@example.com");
  });
});
