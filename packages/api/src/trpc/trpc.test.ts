import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/index.ts";

/** What tRPC's HTTP adapter sends, with superjson: this suite checks the wire format itself. */
type Wire<T> =
  | { result: { data: { json: T } } }
  | { error: { json: { message: string; data: { code: string; appCode: string | null } } } };
const result = <T>(res: { json: unknown }) =>
  (res.json as Extract<Wire<T>, { result: unknown }>).result.data.json;
const error = (res: { json: unknown }) => (res.json as Extract<Wire<never>, { error: unknown }>).error.json;

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
    expect(result(res)).toMatchObject({ email: "root@example.com", isOperator: true });
  });

  it("maps domain errors to tRPC codes with the spec's code alongside", async () => {
    const anonymous = await app.client();
    const unauthenticated = await anonymous.get("/trpc/auth.me");
    expect(unauthenticated.status).toBe(401);
    expect(error(unauthenticated).data).toMatchObject({
      code: "UNAUTHORIZED",
      appCode: "auth.unauthenticated",
    });
    expect(error(unauthenticated).data).not.toHaveProperty("stack");

    const operator = await app.client({ signIn: true });
    const conflict = await operator.post("/trpc/operator.users.invite", {
      json: { email: "root@example.com" },
    });
    expect(conflict.status).toBe(409);
    expect(error(conflict).data).toMatchObject({ code: "CONFLICT", appCode: "user.already_exists" });

    const invalid = await operator.post("/trpc/operator.users.invite", { json: { email: "nope" } });
    expect(invalid.status).toBe(400);
    expect(error(invalid).data.appCode).toBe("request.invalid");
  });

  it("runs the same core operation as REST", async () => {
    const operator = await app.client({ signIn: true });
    const invited = await operator.post("/trpc/operator.users.invite", {
      json: { email: "via-trpc@example.com" },
    });
    expect(invited.status).toBe(200);
    expect(result(invited)).toMatchObject({ email: "via-trpc@example.com", status: "pending" });
    const rest = await operator.api.operator.users.list();
    expect(rest.body.map((u) => u.email)).toContain("via-trpc@example.com");
    await app.smtp.waitFor("via-trpc@example.com");
  });
});
