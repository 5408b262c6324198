import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationList } from "../catalogue.ts";
import { startTestApp, type TestApp } from "../testing/index.ts";
import { appRouter } from "../trpc/app-router.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const samplePath = (path: string) =>
  `/api/v1${path.replace(/\{(\w+)\}/g, "00000000-0000-4000-8000-000000000000")}`;

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;

/**
 * The one list is the whole API: every operation answers on REST at its path and method, and on tRPC
 * under its name with the matching kind, unless its declaration says why it is REST-only. An answer of
 * any kind counts (401, 400…), except "no such route" or "no such procedure".
 */
describe("every declared operation is reachable", () => {
  it.each(operationList.map(({ name, op }) => [name, op] as const))("%s on REST", async (_name, op) => {
    const res = await fetch(`${app.url}${samplePath(op.path)}`, {
      method: op.method.toUpperCase(),
      headers: { "content-type": "application/json" },
      ...(op.method === "get" ? {} : { body: "{}" }),
    });
    const body = res.headers.get("content-type")?.includes("json")
      ? ((await res.json()) as { code?: string })
      : null;
    expect(body?.code).not.toBe("route.not_found");
  });

  const served = operationList.filter(({ op }) => !op.restOnly);
  it.each(served.map(({ name, op }) => [name, op] as const))("%s on tRPC", async (name, op) => {
    expect(procedures[name]?._def.type).toBe(op.method === "get" ? "query" : "mutation");
    const res = await fetch(`${app.url}/trpc/${name}`, op.method === "get" ? {} : { method: "POST" });
    const body = (await res.json()) as { error?: { json?: { message?: string } } };
    expect(res.status).not.toBe(405);
    expect(body.error?.json?.message ?? "").not.toMatch(/no procedure found/i);
  });

  it("serves nothing on tRPC that the list does not declare, and says why an operation is REST-only", () => {
    expect(Object.keys(procedures).sort()).toEqual(served.map(({ name }) => name).sort());
    const restOnly = operationList.filter(({ op }) => op.restOnly !== undefined);
    expect(restOnly.map(({ name }) => name)).toEqual([
      "client.activate",
      "client.heartbeat",
      "client.deactivate",
      "client.machines",
      "client.acquireLease",
      "client.renewLease",
      "client.releaseLease",
      "client.borrowLease",
      "client.revocations",
      "client.publicKey",
      "audit.export",
    ]);
    for (const { op } of restOnly) expect(op.restOnly!.length).toBeGreaterThan(10);
  });
});
