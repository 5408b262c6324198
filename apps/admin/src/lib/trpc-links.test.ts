import type { AppRouter } from "@licensing/api";
import { createLicensedCompany, startTestApp, type TestApp, type TestClient } from "@licensing/api/testing";
import { createTRPCClient } from "@trpc/client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { idempotencyKeys } from "./idempotency.ts";
import { trpcLinks } from "./trpc-links.ts";

// The app's link chain against the real server over HTTP, signed in as the browser would be.

let app: TestApp;
let operator: TestClient;
let target: { companyId: string; templateId: string };
/** Each HTTP request the links made: its path and query, and its Idempotency-Key. */
let requests: { path: string; key: string | null }[] = [];
/** The next answer is lost on the way back (the server did the work): the network failed. */
let loseNextAnswer = false;

const fetchAsBrowser: typeof fetch = async (input, init) => {
  const headers = new Headers(init?.headers);
  for (const [name, value] of Object.entries(operator.headersFor())) headers.set(name, value);
  const url = new URL(String(input));
  requests.push({ path: url.pathname + url.search, key: headers.get("idempotency-key") });
  const res = await fetch(input, { ...init, headers });
  if (loseNextAnswer) {
    loseNextAnswer = false;
    throw new TypeError("fetch failed");
  }
  return res;
};

const client = () =>
  createTRPCClient<AppRouter>({ links: trpcLinks({ url: `${app.url}/trpc`, fetch: fetchAsBrowser }) });

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  target = await createLicensedCompany(operator);
});
afterAll(() => app?.close());
beforeEach(() => {
  requests = [];
});

describe("the admin app's tRPC links", () => {
  it("sends a license again after a lost answer with the same key, and gets the same license", async () => {
    const trpc = client();
    const keys = idempotencyKeys();
    const issue = (input: typeof target) =>
      keys.send(input, (idempotencyKey) =>
        trpc.licenses.issue.mutate(input, { context: { idempotencyKey } }),
      );

    loseNextAnswer = true;
    await expect(issue(target)).rejects.toThrow("fetch failed");
    const retried = await issue(target);
    const again = await issue(target);

    // Each call alone (no batch), with a key: the retry's is the first attempt's, the next submission's new.
    expect(requests.map((r) => r.path)).toEqual(Array(3).fill("/trpc/licenses.issue"));
    const [lost, retry, next] = requests.map((r) => r.key);
    expect(lost).toMatch(/^[0-9a-f]{32}$/);
    expect(retry).toBe(lost);
    expect(next).not.toBe(lost);
    // The lost attempt issued the license the retry answered with; the next submission issued another.
    const issued = await trpc.licenses.search.query({ companyId: target.companyId });
    expect(issued.items.map((l) => l.id).sort()).toEqual([retried.id, again.id].sort());
    expect(again.id).not.toBe(retried.id);
  });

  it("batches the calls without a key made in the same tick, and sends a keyed call alone", async () => {
    const trpc = client();
    await Promise.all([
      trpc.companies.list.query(),
      trpc.templates.list.query({}),
      trpc.licenses.issue.mutate(target, { context: { idempotencyKey: "one-submission" } }),
    ]);
    expect(requests).toHaveLength(2);
    expect(requests).toContainEqual({ path: "/trpc/licenses.issue", key: "one-submission" });
    const batch = requests.find((r) => r.key === null)!;
    expect(batch.path).toMatch(/^\/trpc\/companies\.list,templates\.list\?batch=1&/);
  });
});
