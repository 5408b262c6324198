import { TRPC_MAX_BATCH_SIZE } from "@licensing/contracts";
import { afterEach, describe, expect, it } from "vitest";
import { createMember, MEMBER_PASSWORD } from "../testing/fixtures.ts";
import { startTestApp, type TestApp } from "../testing/index.ts";

// tRPC batches over real HTTP: every procedure call counts against its contour's rate limit, a batch has a
// maximum size, and the sign-in throttle holds however many attempts one request carries (decision 0036).

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
async function appWith(rateLimits: { auth?: number; panel?: number }) {
  const app = await startTestApp({ rateLimits });
  apps.push(app);
  return app;
}

const batchPath = (names: string[]) => `/trpc/${names.join(",")}?batch=1`;
const batchBody = (inputs: unknown[]) => Object.fromEntries(inputs.map((input, i) => [i, { json: input }]));
const logins = (n: number, email: (i: number) => string, password = "wrong-password") =>
  Array.from({ length: n }, (_, i) => ({ email: email(i), password }));

/** One call's answer in a batch, as tRPC's HTTP adapter sends it: these suites check the wire itself. */
interface BatchItem {
  error?: { json: { data: { code: string; appCode: string | null } } };
}
const appCodes = (json: unknown) =>
  (json as BatchItem[]).map((item) => item.error?.json.data.appCode ?? "ok");

describe("tRPC batches and rate limits", () => {
  it("count each call against the auth contour, and a batch past the limit is refused whole", async () => {
    const app = await appWith({ auth: 20 });
    const client = await app.client();
    const first = logins(15, (i) => `first-${i}@example.com`);
    const ok = await client.post(batchPath(first.map(() => "auth.login")), batchBody(first));
    expect(ok.status).toBe(401);
    expect(appCodes(ok.json)).toEqual(Array(15).fill("auth.invalid_credentials"));
    expect(ok.headers.get("ratelimit-limit")).toBe("20");
    expect(ok.headers.get("ratelimit-remaining")).toBe("5");

    const second = logins(6, (i) => `second-${i}@example.com`);
    const refused = await client.post(batchPath(second.map(() => "auth.login")), batchBody(second));
    expect(refused.status).toBe(429);
    expect(refused.error).toEqual({ code: "rate_limit.exceeded", message: expect.any(String), status: 429 });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit-limit")).toBe("20");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(refused.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
  });

  it("count the other calls against the panel contour, auth.* calls against the auth one", async () => {
    const app = await appWith({ panel: 10, auth: 50 });
    const client = await app.client();
    const queries = await client.get(batchPath(Array(8).fill("companies.list")));
    expect(queries.status).toBe(401);
    expect(queries.headers.get("ratelimit-limit")).toBe("10");
    expect(queries.headers.get("ratelimit-remaining")).toBe("2");
    // Two panel calls fit; the auth call is counted on its own contour, whose headers the answer shows.
    const mixed = await client.get(batchPath(["companies.list", "auth.me", "companies.list"]));
    expect(mixed.status).toBe(401);
    expect(mixed.headers.get("ratelimit-limit")).toBe("50");
    expect(mixed.headers.get("ratelimit-remaining")).toBe("49");
    const over = await client.get(batchPath(["auth.me", "companies.list"]));
    expect(over.status).toBe(429);
    expect(over.headers.get("ratelimit-limit")).toBe("10");
  });

  it(`refuse a batch of more than ${TRPC_MAX_BATCH_SIZE} calls before any runs or counts`, async () => {
    const app = await appWith({ auth: 100 });
    const client = await app.client();
    const tooMany = logins(TRPC_MAX_BATCH_SIZE + 1, (i) => `many-${i}@example.com`);
    const refused = await client.post(batchPath(tooMany.map(() => "auth.login")), batchBody(tooMany));
    expect(refused.status).toBe(400);
    expect(refused.error).toEqual({
      code: "request.batch_too_large",
      message: expect.any(String),
      status: 400,
    });
    expect(refused.error.message).toContain(`at most ${TRPC_MAX_BATCH_SIZE}`);
    const next = await client.post("/trpc/auth.login", { json: { email: "a@example.com", password: "x" } });
    expect(next.headers.get("ratelimit-remaining")).toBe("99");

    const largest = logins(TRPC_MAX_BATCH_SIZE, (i) => `largest-${i}@example.com`);
    const ok = await client.post(batchPath(largest.map(() => "auth.login")), batchBody(largest));
    expect(ok.status).toBe(401);
    expect(ok.json).toHaveLength(TRPC_MAX_BATCH_SIZE);
  });

  it("name procedures as tRPC reads them: the last path segment, case-sensitive", async () => {
    const app = await appWith({ auth: 2, panel: 1000 });
    const client = await app.client();
    const login = { json: { email: "prefix@example.com", password: "wrong-password" } };
    const prefixed = await client.post("/trpc/anything/auth.login", login);
    expect(prefixed.status).toBe(401);
    expect(prefixed.headers.get("ratelimit-limit")).toBe("2");
    // No procedure has that name, so it counts on the panel contour and runs nothing.
    const capitalised = await client.post("/trpc/Auth.login", login);
    expect(capitalised.status).toBe(404);
    expect(capitalised.headers.get("ratelimit-limit")).toBe("1000");
    expect(capitalised.headers.get("set-cookie")).toBeNull();
  });
});

describe("tRPC batches and the sign-in throttle", () => {
  it("check at most 10 passwords of one account, however many calls a batch holds", async () => {
    const app = await appWith({});
    const { email } = await createMember(app, {});
    const client = await app.client();
    const attempts = logins(TRPC_MAX_BATCH_SIZE, () => email);
    const res = await client.post(batchPath(attempts.map(() => "auth.login")), batchBody(attempts));
    expect(res.status).toBe(207);
    const codes = appCodes(res.json).sort();
    expect(codes).toEqual([
      ...Array(10).fill("auth.invalid_credentials"),
      ...Array(TRPC_MAX_BATCH_SIZE - 10).fill("auth.too_many_attempts"),
    ]);
    expect(res.headers.get("retry-after")).toBe(String(15 * 60));

    const right = await client.post("/trpc/auth.login", { json: { email, password: MEMBER_PASSWORD } });
    expect(right.status).toBe(429);
    expect((right.json as Required<BatchItem>).error.json.data.appCode).toBe("auth.too_many_attempts");
    expect(right.headers.get("retry-after")).toBe(String(15 * 60));
  });
});
