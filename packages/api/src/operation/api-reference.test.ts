import { errorCatalogue, type ErrorCode } from "@licensing/contracts";
import { tables } from "@licensing/db";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { operationList } from "../catalogue.ts";
import { errorKindMapping } from "../errors.ts";
import { createLicensedCompany } from "../testing/client-api.ts";
import { newNonce, offlineReceipt, offlineRequest } from "../testing/offline.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import { startTestApp } from "../testing/index.ts";

/**
 * Issue 21 §6: the reference at /api/docs is something a third party can build on. Every operation says
 * what it does and who may call it, every example is a value its schema accepts, the headers and the
 * answers it declares are the ones sent, and the events it names are the ones it publishes.
 */

type Json = Record<string, unknown>;
interface Document {
  paths: Record<string, Record<string, Json & { responses: Record<string, Json> }>>;
  components: Record<string, Record<string, Json>>;
}

const suite = useClientApi();
let document: Document;
beforeAll(async () => {
  document = (await (await suite.app.client()).get<Document>("/api/v1/openapi.json")).body;
});

const served = (op: { method: string; path: string }) => document.paths[op.path]![op.method]!;

/** Who may call, in the words the descriptions use. */
const namesWhoMayCall =
  /operators only|any authenticated caller|needs (viewer|admin|owner)|anyone|signed-in user|for people only|installed program/i;

describe("every operation is described", () => {
  it.each(operationList.map(({ name, op }) => [name, op] as const))("%s", (_name, op) => {
    const text = op.description.trim();
    expect(text.length, "a description of at least a sentence").toBeGreaterThanOrEqual(60);
    expect(text).toMatch(/\.$/);
    expect(text, "who may call it").toMatch(namesWhoMayCall);
    if (op.method === "get")
      expect(text, "what it changes").toMatch(/changes nothing|recorded in the audit log/);
    expect(op.summary.length).toBeLessThanOrEqual(80);

    const published = served(op);
    expect(published.description).toContain(text);
    expect(published.description).toContain("**Access:**");
    for (const event of op.events ?? []) expect(published.description).toContain(`\`${event}\``);
  });
});

describe("every example validates against its schema", () => {
  it("in schemas, parameters, headers and responses", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats is CommonJS; under ESM its function sits on `default`.
    const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
      addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
    addFormats(ajv);
    const base = "https://reference.invalid/openapi.json";
    ajv.addSchema({ $id: base, components: document.components });
    const check = (schema: unknown, value: unknown, where: string) => {
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', `"${base}#/components/`),
      );
      const validate = ajv.compile(rebased as Json);
      expect(validate(value), `${where}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`).toBe(
        true,
      );
      checked++;
    };
    let checked = 0;

    // Schemas, at any depth: `examples` (and the older `example`) hold values of the schema they sit in.
    const walkSchema = (node: unknown, where: string, parentKey?: string) => {
      if (Array.isArray(node)) return node.forEach((item, i) => walkSchema(item, `${where}/${i}`));
      if (!node || typeof node !== "object") return;
      const schema = node as Json;
      if (parentKey !== "properties") {
        if (Array.isArray(schema.examples))
          schema.examples.forEach((value, i) => check(schema, value, `${where} examples[${i}]`));
        if ("example" in schema) check(schema, schema.example, `${where} example`);
      }
      for (const [key, child] of Object.entries(schema)) walkSchema(child, `${where}/${key}`, key);
    };
    // Parameters, headers and media types: `example`, or named `examples` with a `value`.
    const walkHolder = (holder: Json, where: string) => {
      if (holder.schema) {
        walkSchema(holder.schema, `${where}/schema`);
        if ("example" in holder) check(holder.schema, holder.example, `${where} example`);
        for (const [name, named] of Object.entries((holder.examples ?? {}) as Record<string, Json>))
          check(holder.schema, named.value, `${where} examples.${name}`);
      }
    };
    const walkContent = (content: unknown, where: string) => {
      for (const [type, media] of Object.entries((content ?? {}) as Record<string, Json>))
        walkHolder(media, `${where}/${type}`);
    };

    for (const [name, schema] of Object.entries(document.components.schemas!))
      walkSchema(schema, `schemas/${name}`);
    for (const [name, body] of Object.entries(document.components.requestBodies!))
      walkContent(body.content, `requestBodies/${name}`);
    for (const [name, parameter] of Object.entries(document.components.parameters!))
      walkHolder(parameter, `parameters/${name}`);
    for (const [name, header] of Object.entries(document.components.headers!))
      walkHolder(header, `headers/${name}`);
    for (const [path, methods] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(methods)) {
        for (const parameter of (op.parameters ?? []) as Json[]) walkHolder(parameter, `${method} ${path}`);
        const body = op.requestBody as Json | undefined;
        if (body?.content) walkContent(body.content, `${method} ${path} requestBody`);
        for (const [status, response] of Object.entries(op.responses))
          walkContent(response.content, `${method} ${path} ${status}`);
      }
    expect(checked).toBeGreaterThan(500);
  });

  it("no integer shows zod's safe-integer bounds, which Swagger UI took for examples", () => {
    const text = JSON.stringify(document);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toContain(String(Number.MIN_SAFE_INTEGER));
  });

  it("an error answer's examples are its own codes, with its status", () => {
    for (const { op } of operationList) {
      for (const [status, response] of Object.entries(served(op).responses)) {
        if (Number(status) < 400) continue;
        const media = (response.content as Record<string, Json>)["application/json"]!;
        const examples = Object.values(media.examples as Record<string, { value: Json }>);
        expect(examples.length, `${op.method} ${op.path} ${status}`).toBeGreaterThan(0);
        for (const { value } of examples) {
          expect(value.status).toBe(Number(status));
          expect(errorKindMapping[errorCatalogue[value.code as ErrorCode]].status).toBe(Number(status));
          expect(response.description).toContain(`\`${String(value.code)}\``);
        }
      }
    }
  });
});

describe("the declared headers, answers and security", () => {
  it("Idempotency-Key on the idempotent operations, 429 and 503 on every one, the signature where it is checked", () => {
    for (const { op } of operationList) {
      const published = served(op);
      const parameters = JSON.stringify(published.parameters ?? []);
      expect(parameters.includes("#/components/parameters/IdempotencyKey")).toBe(op.idempotent === true);
      for (const status of ["429", "503"]) {
        expect(Object.keys(published.responses[status]!.headers as Json)).toEqual([
          "RateLimit-Policy",
          "RateLimit-Limit",
          "RateLimit-Remaining",
          "RateLimit-Reset",
          "Retry-After",
        ]);
      }
      if (op.signed) expect(published.security).toEqual([{ clientTimestamp: [], clientSignature: [] }]);
      if (op.auth === "session") expect(published.security).toEqual([{ session: [] }]);
    }
    const schemes = document.components.securitySchemes!;
    expect(schemes.clientTimestamp).toMatchObject({ in: "header", name: "X-Service-Timestamp" });
    expect(schemes.clientSignature).toMatchObject({ in: "header", name: "X-Service-Signature" });
    expect(schemes.clientSignature!.description).toMatch(/v1.*v2/s);
  });

  it("a signed operation refuses an unsigned call with hmac.missing", async () => {
    const { license, activationId, client } = await suite.activated();
    const signed = operationList.filter(({ op }) => op.signed);
    expect(signed.map(({ name }) => name)).toEqual([
      "client.heartbeat",
      "client.deactivate",
      "client.machines",
      "client.acquireLease",
      "client.renewLease",
      "client.releaseLease",
      "client.borrowLease",
    ]);
    for (const { op } of signed) {
      const res = await client.post(`/api/v1${op.path}`, {
        licenseKey: license.licenseKey,
        activationId,
        leaseId: activationId,
        until: "2100-01-01T00:00:00Z",
      });
      expect([res.status, (res.json as { code: string }).code]).toEqual([401, "hmac.missing"]);
    }
  });

  it("the headers each answer declares are sent: RateLimit-* on every one, Retry-After on a 429", async () => {
    const app = await startTestApp({ rateLimits: { client: 2 } });
    try {
      const responses = document.paths["/client/public-key/{licenseKey}"]!.get!.responses;
      const client = await app.client();
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await client.get("/api/v1/client/public-key/SVC-NOPE"));
      expect(answers.map((res) => res.status)).toEqual([404, 404, 429]);
      for (const res of answers) {
        const declared = Object.keys(responses[String(res.status)]!.headers as Json);
        expect(declared.filter((name) => name.startsWith("RateLimit-"))).toHaveLength(4);
        for (const name of declared) expect(res.headers.get(name), name).toMatch(/^\S+$/);
      }
      expect(answers[0]!.headers.get("RateLimit-Remaining")).toBe("1");
      expect(Number(answers[2]!.headers.get("Retry-After"))).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

describe("the events an operation declares are the ones it publishes", () => {
  it("each write that publishes, called once: exactly its declared event types", async () => {
    const { app, operator } = suite;
    const outbox = async () => app.deps.db.select().from(tables.outboxEvents);
    const published = new Map<string, Set<string>>();
    const call = async (
      name: string,
      send: () => Promise<{ status: number; text: string }>,
      refusal?: number,
    ) => {
      const before = new Set((await outbox()).map((row) => row.id));
      const res = await send();
      if (refusal) expect(res.status, `${name}: ${res.text}`).toBe(refusal);
      else expect(res.status, `${name}: ${res.text}`).toBeLessThan(300);
      const types = (await outbox()).filter((row) => !before.has(row.id)).map((row) => row.eventType);
      published.set(name, new Set([...(published.get(name) ?? []), ...types]));
    };
    const { api } = operator;
    const other = await createLicensedCompany(operator);
    const license = await suite.issue();
    const client = await app.client();
    const activate = async (hwFingerprint: string) => {
      let activationId = "";
      await call("client.activate", async () => {
        const res = await client.api.client.activate({
          body: { licenseKey: license.licenseKey, hwFingerprint },
        });
        activationId = res.body.activationId;
        return res;
      });
      return activationId;
    };

    await call("licenses.issue", () => api.licenses.issue({ body: suite.target }));
    await call("licenses.bulkIssue", () =>
      api.licenses.bulkIssue({
        body: { templateId: suite.target.templateId, items: [{ companyId: suite.target.companyId }] },
      }),
    );
    let activationId = await activate("fp-1");
    const ids = { licenseKey: license.licenseKey, activationId };
    await call("client.heartbeat", () => suite.signed(client, "heartbeat", ids));
    await call("client.deactivate", () => suite.signed(client, "deactivate", ids));
    activationId = await activate("fp-1");
    await call("activations.reset", () =>
      api.activations.reset({ params: { id: license.id, activationId } }),
    );
    await activate("fp-1");
    await call("licenses.transfer", () =>
      api.licenses.transfer({ params: { id: license.id }, body: { newCompanyId: other.companyId } }),
    );
    await activate("fp-1");
    await call("licenses.rebind", () =>
      api.licenses.rebind({ params: { id: license.id }, body: { hwFingerprint: "fp-2" } }),
    );
    // A machine that drifts heals; a second new device is over a budget of one (and publishes that once).
    const budgeted = await suite.issue({ maxNewDevicesPerWindow: 1 });
    const hash = (n: number) => n.toString(16).padStart(64, "0");
    const machine = (fp: string, hashes: number[]) => ({
      licenseKey: budgeted.licenseKey,
      hwFingerprint: fp,
      components: hashes.map((n, i) => ({ kind: `kind-${i}`, hash: hash(n) })),
    });
    await call("client.activate", () => client.api.client.activate({ body: machine("drift-1", [1, 2, 3]) }));
    await call("client.activate", () => client.api.client.activate({ body: machine("drift-2", [1, 2, 9]) }));
    await call(
      "client.activate",
      () => client.api.client.activate({ body: machine("other", [7, 8, 9]) }),
      429,
    );
    // A full pool of one seat refuses an acquire, the renew of a lease that expired while another machine
    // took the seat, and its borrow; each on its own license (the event is published once an hour each).
    const pool = async () => {
      const floating = await suite.issue({
        seatModel: "floating",
        maxBorrowDays: 1,
        config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
      });
      const machine = async (hwFingerprint: string) =>
        (await client.api.client.activate({ body: { licenseKey: floating.licenseKey, hwFingerprint } })).body
          .activationId;
      const [a, b] = [await machine("pool-a"), await machine("pool-b")];
      const lease = async (activationId: string) =>
        (await suite.signed(client, "acquireLease", { licenseKey: floating.licenseKey, activationId })).body
          .leaseId;
      return { licenseKey: floating.licenseKey, a, b, lease };
    };
    const acquired = await pool();
    await call("client.acquireLease", () =>
      suite.signed(client, "acquireLease", { licenseKey: acquired.licenseKey, activationId: acquired.a }),
    );
    await call(
      "client.acquireLease",
      () =>
        suite.signed(client, "acquireLease", { licenseKey: acquired.licenseKey, activationId: acquired.b }),
      409,
    );
    const [renewed, borrowed] = [await pool(), await pool()];
    const expired = [await renewed.lease(renewed.a), await borrowed.lease(borrowed.a)];
    app.clock.advance(901_000);
    await renewed.lease(renewed.b);
    await borrowed.lease(borrowed.b);
    await call(
      "client.renewLease",
      () => suite.signed(client, "renewLease", { licenseKey: renewed.licenseKey, leaseId: expired[0]! }),
      409,
    );
    await call(
      "client.borrowLease",
      () =>
        suite.signed(client, "borrowLease", {
          licenseKey: borrowed.licenseKey,
          leaseId: expired[1]!,
          until: new Date(app.clock.now().getTime() + 3_600_000).toISOString(),
        }),
      409,
    );
    // A machine without network: the panel answers its request, then its receipt.
    const airGapped = await suite.issue();
    const nonce = newNonce();
    let offlineId = "";
    await call("activations.offlineActivate", async () => {
      const res = await api.activations.offlineActivate({
        params: { id: airGapped.id },
        body: { request: offlineRequest(airGapped, { nonce }) },
      });
      offlineId = res.body.activationId;
      return res;
    });
    await call("activations.offlineDeactivate", () =>
      api.activations.offlineDeactivate({ body: { receipt: offlineReceipt(airGapped, offlineId, nonce) } }),
    );
    await call("licenses.suspend", () => api.licenses.suspend({ params: { id: license.id } }));
    await call("licenses.resume", () => api.licenses.resume({ params: { id: license.id } }));
    await call("licenses.revoke", () => api.licenses.revoke({ params: { id: license.id } }));

    for (const { name, op } of operationList) {
      if (op.events?.length) expect(published.has(name), `${name} declares events: call it here`).toBe(true);
      if (published.has(name))
        expect([name, [...published.get(name)!].sort()]).toEqual([name, [...(op.events ?? [])].sort()]);
    }
  });
});
