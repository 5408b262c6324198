import { Validator } from "@seriousme/openapi-schema-validator";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationList } from "../catalogue.ts";
import { mountOperations } from "../operation/rest.ts";
import { startTestApp, type TestApp } from "../testing/index.ts";

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface Document {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
  components: { schemas: Record<string, unknown> };
}

async function fetchDocument() {
  const res = await (await app.client()).get("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  return res.body as Document;
}

describe("GET /api/v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every route Express serves under /api/v1, with its method", async () => {
    const document = await fetchDocument();
    // Read the routes back from a real Express router, as the app mounts them.
    const router = express.Router();
    mountOperations(
      router,
      operationList.map(({ op }) => op),
      { deps: app.deps, cookies: { secure: false }, validateResponses: false },
    );
    const served = router.stack
      .filter((layer) => layer.route)
      .flatMap((layer) =>
        Object.keys((layer.route as unknown as { methods: Record<string, boolean> }).methods).map(
          (method) => `${method} ${layer.route!.path.replace(/:(\w+)/g, "{$1}")}`,
        ),
      );
    expect(served.length).toBeGreaterThanOrEqual(16);
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect(documented.sort()).toEqual(served.sort());
  });

  it("lists the operations and schemas of the committed snapshot (a change to the API shows in review)", async () => {
    const document = await fetchDocument();
    const normalised = {
      ...document,
      info: { ...(document as unknown as { info: object }).info, version: "snapshot" },
      servers: [{ url: "http://localhost:3000/api/v1" }],
    };
    // UPDATE: `npx vitest run packages/api/src/operation/openapi.test.ts -u` rewrites it after a deliberate change.
    await expect(`${JSON.stringify(normalised, null, 2)}\n`).toMatchFileSnapshot(
      "../operation/openapi.snapshot.json",
    );
  });

  it("documents the error body and every referenced schema", async () => {
    const document = await fetchDocument();
    expect(document.components.schemas.ErrorResponse).toBeDefined();
    const refs = [...JSON.stringify(document).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
    for (const ref of refs) expect(document.components.schemas[ref], ref).toBeDefined();
    expect(document.paths["/panel/auth/login"]!.post!.responses["401"]).toBeDefined();
  });
});

describe("GET /api/docs", () => {
  it("serves the browsable documentation page", async () => {
    const res = await fetch(`${app.url}/api/docs/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("swagger-ui");
  });
});
