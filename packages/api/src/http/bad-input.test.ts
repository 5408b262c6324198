import { connect } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { tables } from "@licensing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationList } from "../catalogue.ts";
import {
  createLicensedCompany,
  issueLicense,
  startTestApp,
  type TestApp,
  type TestClient,
} from "../testing/index.ts";
import { addVersion, createTemplate } from "../testing/licensing.ts";

/** Issue 9: bad input is a 4xx in the spec's error shape, decided before any SQL runs. */

let app: TestApp;
let operator: TestClient;
let anonymous: TestClient;

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  anonymous = await app.client();
});
afterAll(() => app.close());

const errorBody = (code: string, status: number, message: unknown = expect.any(String)) => ({
  code,
  message,
  status,
});
const examplePath = (path: string, value: string) => `/api/v1${path.replace(/\{\w+\}/, value)}`;
const nested = (depth: number, leaf = "1") => "[".repeat(depth) + leaf + "]".repeat(depth);
/** A tRPC error as its HTTP adapter sends it (superjson). */
type TrpcErrorWire = {
  error: { json: { message: string; data: { code: string; appCode: string | null } } };
};
const companyCount = async () => (await app.database.db.select().from(tables.companies)).length;

/** Sends raw bytes over a socket and returns the status line and body, as a proxy in front would see them. */
function rawHttp(request: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let data = "";
    socket.on("data", (chunk) => (data += chunk.toString("utf8")));
    socket.on("error", reject);
    socket.on("end", () => {
      const [head = "", body = ""] = data.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head, body });
    });
    socket.end(request);
  });
}

describe("malformed percent-encoding in a path parameter", () => {
  const withParams = operationList.map(({ op }) => op).filter((r) => r.path.includes("{"));

  it.each(["%ZZ", "%E0%A4%A", "%"])("%s is a 400 on every operation with a path parameter", async (bad) => {
    expect(withParams.length).toBeGreaterThan(10);
    for (const route of withParams) {
      const res = await anonymous.request(route.method.toUpperCase(), examplePath(route.path, bad));
      // `json`, not `error`: a failure still names the route.
      expect([route.path, res.status, res.json]).toEqual([
        route.path,
        400,
        errorBody("request.invalid", 400, "A path parameter is not valid percent-encoded UTF-8"),
      ]);
    }
  });
});

describe("a body that does not match its Content-Encoding", () => {
  const jsonRoutes = operationList.map(({ op }) => op).filter((r) => r.body);

  it.each(["gzip", "br", "deflate"])(
    "plain JSON sent as %s is a 400 on every JSON operation",
    async (enc) => {
      for (const route of jsonRoutes) {
        const res = await operator.request(
          route.method.toUpperCase(),
          examplePath(route.path, "00000000-0000-4000-8000-000000000000"),
          '{"name":"x"}',
          { "content-encoding": enc },
        );
        expect([route.path, res.status, res.json]).toEqual([
          route.path,
          400,
          errorBody("request.invalid_encoding", 400, "The request body does not match its Content-Encoding"),
        ]);
      }
    },
  );

  it("an unknown encoding is a 400 naming the ones accepted", async () => {
    const res = await anonymous.request("POST", "/api/v1/client/activate", "{}", {
      "content-encoding": "zstd",
    });
    expect(res.error).toEqual(
      errorBody(
        "request.invalid_encoding",
        400,
        "Unsupported Content-Encoding: send identity, gzip, deflate or br",
      ),
    );
  });

  it("a body that is really compressed is read", async () => {
    const login = JSON.stringify({ email: "nobody@example.com", password: "wrong-password" });
    for (const [enc, bytes] of [
      ["gzip", gzipSync(login)],
      ["br", brotliCompressSync(login)],
    ] as const) {
      const res = await fetch(`${app.url}/api/v1/panel/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": enc },
        body: new Uint8Array(bytes),
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "auth.invalid_credentials" });
    }
  });

  it("a compressed body that inflates past 1 MiB is a 413", async () => {
    const bomb = gzipSync(JSON.stringify({ name: "a".repeat(3 * 1024 * 1024) }));
    const res = await fetch(`${app.url}/api/v1/panel/companies`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-encoding": "gzip",
        cookie: `service.auth=${operator.cookie}`,
      },
      body: new Uint8Array(bomb),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual(errorBody("request.too_large", 413));
  });
});

describe("NUL characters and unpaired surrogates", () => {
  const nul = "a\u0000b";

  it("in a body string: a 400 naming the field, and nothing is written", async () => {
    const before = await companyCount();
    const res = await operator.post("/api/v1/panel/companies", { name: nul, slug: "nul-company" });
    expect(res.error).toEqual(
      errorBody(
        "request.invalid",
        400,
        "body.name: contains a NUL character (U+0000), which cannot be stored",
      ),
    );
    const surrogate = await operator.request(
      "POST",
      "/api/v1/panel/companies",
      '{"name":"\\ud800x","slug":"surrogate-company"}',
    );
    expect(surrogate.error).toEqual(
      errorBody(
        "request.invalid",
        400,
        "body.name: contains an unpaired UTF-16 surrogate, which is not valid Unicode",
      ),
    );
    const lowAlone = await operator.request(
      "POST",
      "/api/v1/panel/companies",
      '{"name":"x\\udc00","slug":"s2"}',
    );
    expect(lowAlone.error).toMatchObject({
      code: "request.invalid",
      message: expect.stringMatching(/^body\.name: /),
    });
    expect(await companyCount()).toBe(before);
  });

  it("a paired surrogate (an emoji) is ordinary text", async () => {
    const res = await operator.api.companies.create({
      body: { name: "Rocket \ud83d\ude80 Ltd", slug: "rocket" },
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe("Rocket 🚀 Ltd");
  });

  it("in an object key of a body: a 400 naming the key", async () => {
    const res = await operator.request(
      "POST",
      "/api/v1/panel/companies",
      '{"name":"n","slug":"k","x\\u0000":1}',
    );
    expect(res.error).toEqual(
      errorBody(
        "request.invalid",
        400,
        "body.x\u0000: has a key that contains a NUL character (U+0000), which cannot be stored",
      ),
    );
  });

  it("in a query parameter: license search and the audit export", async () => {
    const search = await operator.get("/api/v1/panel/licenses?search=a%00b");
    expect(search.error).toEqual(
      errorBody(
        "request.invalid",
        400,
        "query.search: contains a NUL character (U+0000), which cannot be stored",
      ),
    );
    const exported = await operator.get("/api/v1/panel/audit/export?format=csv&action=a%00b");
    expect(exported.status).toBe(400);
    expect(exported.error).toMatchObject({
      code: "request.invalid",
      message: expect.stringMatching(/^query\.action: /),
    });
  });

  it("in machineName on activate with an unknown key (no credentials)", async () => {
    const res = await anonymous.post("/api/v1/client/activate", {
      licenseKey: "SVC-00000-00000-00000-00000-00000",
      hwFingerprint: "fp",
      machineName: nul,
    });
    expect(res.error).toEqual(
      errorBody(
        "request.invalid",
        400,
        "body.machineName: contains a NUL character (U+0000), which cannot be stored",
      ),
    );
  });

  it("inside a license config's JSON text: a 400 naming the position in the config", async () => {
    const target = await createLicensedCompany(operator);
    const nulInConfig = await operator.post("/api/v1/panel/licenses", {
      ...target,
      config: '{"features":["ok","a\\u0000b"]}',
    });
    expect(nulInConfig.error).toEqual(
      errorBody(
        "license.invalid_config",
        400,
        "config.features.1: contains a NUL character (U+0000), which cannot be stored",
      ),
    );
    const surrogateKey = await operator.post("/api/v1/panel/licenses", {
      ...target,
      config: '{"limits":{"\\udfff":1}}',
    });
    expect(surrogateKey.error).toMatchObject({
      code: "license.invalid_config",
      message: expect.stringMatching(/^config\.limits\./),
    });
    const huge = await operator.post("/api/v1/panel/licenses", {
      ...target,
      config: '{"limits":{"maxSeats":1e400}}',
    });
    expect(huge.error).toEqual(
      errorBody("license.invalid_config", 400, "config.limits.maxSeats: is a number out of range"),
    );
  });

  it("over tRPC: BAD_REQUEST with the spec's code", async () => {
    const res = await operator.request(
      "POST",
      "/trpc/companies.create",
      JSON.stringify({ json: { name: nul, slug: "trpc-nul" } }),
    );
    expect(res.status).toBe(400);
    const { error } = res.json as TrpcErrorWire;
    expect(error.json.data).toMatchObject({ code: "BAD_REQUEST", appCode: "request.invalid" });
    expect(error.json.message).toBe("input.name: contains a NUL character (U+0000), which cannot be stored");
  });
});

describe("depth and size limits on JSON inputs", () => {
  let target: { companyId: string; templateId: string };
  beforeAll(async () => {
    target = await createLicensedCompany(operator);
  });

  it("a license config nested 20,000 levels deep is a 400, not a stack overflow", async () => {
    const res = await operator.post("/api/v1/panel/licenses", {
      ...target,
      config: `{"limits":{"deep":${nested(20_000)}}}`,
    });
    expect(res.error).toEqual(
      errorBody("license.invalid_config", 400, "config is nested deeper than 64 levels"),
    );
    const fine = await operator.api.licenses.issue({
      body: { ...target, config: `{"limits":{"deep":${nested(60)}}}` },
    });
    expect(fine.status).toBe(201);
  });

  it("a configSchema of 3,000 nested allOf and deep defaults are 400s", async () => {
    const template = await createTemplate(operator);
    const url = `/api/v1/panel/templates/${template.id}/versions`;
    const schema = '{"allOf":['.repeat(3000) + "{}" + "]}".repeat(3000);
    const deepSchema = await operator.post(url, { configSchema: schema });
    expect(deepSchema.error).toEqual(
      errorBody("template.invalid_config_schema", 400, "configSchema is nested deeper than 64 levels"),
    );
    const deepDefaults = await operator.post(url, { configSchema: "{}", defaults: `{"a":${nested(5000)}}` });
    expect(deepDefaults.error).toEqual(
      errorBody("template.invalid_defaults", 400, "defaults is nested deeper than 64 levels"),
    );
    const nulDefaults = await operator.post(url, { configSchema: "{}", defaults: '{"a":"\\u0000"}' });
    expect(nulDefaults.error).toMatchObject({
      code: "template.invalid_defaults",
      message: expect.stringMatching(/^defaults\.a: /),
    });
  });

  it("a request body nested past the limit is a 400 before validation", async () => {
    const res = await operator.request(
      "POST",
      "/api/v1/panel/companies",
      `{"name":${nested(100_000, '"x"')}}`,
    );
    expect(res.error).toEqual(
      errorBody(
        "request.invalid",
        400,
        expect.stringMatching(/^body\.name(\.0)+: is nested deeper than 64 levels$/),
      ),
    );
  });

  it("in a bulk issue, a too deep or too long item config fails only its own row", async () => {
    const res = await operator.api.licenses.bulkIssue({
      body: {
        templateId: target.templateId,
        items: [
          { companyId: target.companyId, config: '{"features":["a"]}' },
          { companyId: target.companyId, config: `{"limits":{"deep":${nested(20_000)}}}` },
          { companyId: target.companyId, config: JSON.stringify({ features: ["x".repeat(300 * 1024)] }) },
          { companyId: target.companyId, config: '{"features":["\\u0000"]}' },
          { companyId: target.companyId },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requested: 5, succeeded: 2, failed: 3 });
    const rows = res.body.results;
    expect(rows.map((r) => r.errorCode)).toEqual([
      null,
      "license.invalid_config",
      "license.invalid_config",
      "license.invalid_config",
      null,
    ]);
    expect(rows[1]!.errorMessage).toBe("config is nested deeper than 64 levels");
    expect(rows[2]!.errorMessage).toMatch(/^config is \d+ characters long; at most 262144 allowed$/);
    expect(rows[0]!.licenseKey).toMatch(/^SVC-/);
  });

  it("a license config at the limit signs, and its token carries it", async () => {
    const license = await issueLicense(operator, target, { config: `{"limits":{"deep":${nested(62)}}}` });
    expect(license.token.split(".")).toHaveLength(3);
  });

  it("a version with a deep but legal schema still validates licenses", async () => {
    const template = await createTemplate(operator);
    const schema = '{"allOf":['.repeat(20) + '{"type":"object"}' + "]}".repeat(20);
    await addVersion(operator, template.id, { configSchema: schema });
    const res = await operator.api.licenses.issue({
      body: { companyId: target.companyId, templateId: template.id },
    });
    expect(res.status).toBe(201);
  });
});

describe("errors the HTTP layer raises before Express", () => {
  it("a 100 KB header is a 431 in the error shape", async () => {
    const res = await rawHttp(
      `GET /api/v1/panel/auth/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`,
    );
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual(
      errorBody(
        "request.header_too_large",
        431,
        "The request line and headers are larger than the server accepts",
      ),
    );
  });

  it("a 100 KB path is a 431 in the error shape", async () => {
    const res = await fetch(`${app.url}/api/v1/client/public-key/${"A".repeat(100_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual(errorBody("request.header_too_large", 431));
  });

  it("a malformed request line or header is a 400 in the error shape", async () => {
    for (const request of [
      "GET /api/v1/panel/auth/me HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n",
      "BREW /x HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Nul: a\u0000b\r\n\r\n",
    ]) {
      const res = await rawHttp(request);
      expect([request, res.status, JSON.parse(res.body)]).toEqual([
        request,
        400,
        errorBody("request.malformed_http", 400, "The request is not well-formed HTTP/1.1"),
      ]);
    }
  });
});
