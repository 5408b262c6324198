import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealedAt, webhooks } from "@licensing/core";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "../testing/api-client.ts";
import {
  createLicensedCompany,
  issueLicense,
  startTestApp,
  TestClient,
  trpcError,
  type ApiResponse,
  type TestApp,
} from "../testing/index.ts";
import { startWebhookReceiver } from "../testing/webhook-receiver.ts";
import { createCompany, createMember, createTokenClient, type Member } from "../testing/fixtures.ts";

const base = "/api/v1/panel/webhooks";
const SECRET = "a-secret-of-24-characters";
// Public addresses for host names the tests invent; anything else is unknown to this resolver.
const dns = new Map<string, string[]>([
  ["hooks.example.com", ["93.184.216.34"]],
  ["dual.example.com", ["93.184.216.34", "10.1.2.3"]],
  ["metadata.example.com", ["169.254.169.254"]],
  ["v6-loopback.example.com", ["::1"]],
]);

let app: TestApp;
let op: TestClient;
let viewer: Member;

beforeAll(async () => {
  app = await startTestApp({
    webhooks: {
      resolveHost: async (host) => {
        const found = dns.get(host);
        if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
        return found;
      },
    },
  });
  op = await app.client({ signIn: true });
  const company = await createCompany(op, null);
  viewer = await createMember(app, { companyId: company.id, role: "owner" });
});
afterAll(() => app.close());

type CreateBody = BodyOf<typeof operations.webhooks.create>;
type UpdateBody = BodyOf<typeof operations.webhooks.update>;
const defaults = { url: "https://hooks.example.com/in", secret: SECRET, description: "CRM" };
const create = (body: Partial<CreateBody> & Pick<CreateBody, "events">) =>
  op.api.webhooks.create({ body: { ...defaults, ...body } });
/** A body the schema refuses, sent as it is. */
const createUntyped = (body: Record<string, unknown>) => op.post(base, { ...defaults, ...body });
const getEndpoint = (id: string) => op.api.webhooks.get({ params: { id } });
const update = (id: string, body: UpdateBody) => op.api.webhooks.update({ params: { id }, body });
const deliveries = (id: string) => op.api.webhooks.deliveries({ params: { id } });

describe("POST /panel/webhooks", () => {
  it("creates an endpoint (201) and never returns or stores the secret in the clear", async () => {
    const res = await create({ events: ["license.revoked", "license.issued", "license.issued"] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      url: "https://hooks.example.com/in",
      description: "CRM",
      isActive: true,
      events: ["license.issued", "license.revoked"],
      lastDeliveryAt: null,
      createdAt: app.clock.now().toISOString(),
    });
    const [row] = await app.deps.db
      .select()
      .from(tables.webhookEndpoints)
      .where(eq(tables.webhookEndpoints.id, res.body.id));
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(
      app.deps.secrets
        .open(row!.secretSealed, sealedAt(tables.webhookEndpoints.secretSealed, row!.id))
        .toString("utf8"),
    ).toBe(SECRET);
    for (const read of [await op.api.webhooks.list(), await getEndpoint(res.body.id)]) {
      expect(read.status).toBe(200);
      expect(read.text).not.toContain(SECRET);
      expect(read.text).not.toContain("secret");
    }
    const audit = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, res.body.id));
    expect(audit.map((a) => a.action)).toEqual(["webhook.created"]);
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it("refuses a URL that is not an absolute http(s) URI: webhook.invalid_url", async () => {
    for (const url of [
      "hooks.example.com/in",
      "/relative",
      "ftp://hooks.example.com/",
      "",
      "https://u:p@hooks.example.com/",
    ]) {
      const res = await create({ url, events: ["license.issued"] });
      expect(res.status, url).toBe(400);
      expect(res.error).toEqual({
        code: "webhook.invalid_url",
        message: expect.stringMatching(/^url: /),
        status: 400,
      });
    }
  });

  it("needs a secret of at least 16 characters: webhook.secret_too_short", async () => {
    const short = await create({ secret: "fifteen-chars!!", events: ["license.issued"] });
    expect(short.status).toBe(400);
    expect(short.error.code).toBe("webhook.secret_too_short");
    expect((await create({ secret: "sixteen-chars!!!", events: ["license.issued"] })).status).toBe(201);
    expect((await createUntyped({ events: ["license.issued"], secret: 42 })).error.code).toBe(
      "request.invalid",
    );
  });

  it("takes events only from the catalogue, at least one: webhook.invalid_events", async () => {
    for (const events of [[], ["license.issued", "license.exploded"], ["LICENSE.ISSUED"]]) {
      const res = await create({ events });
      expect(res.status).toBe(400);
      expect(res.error.code).toBe("webhook.invalid_events");
    }
    expect((await createUntyped({ events: "license.issued" })).error.code).toBe("request.invalid");
  });

  it("refuses URLs leading to loopback, private, link-local or metadata addresses: webhook.url_not_allowed", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hooks",
      "http://[::1]/hooks",
      "http://[::ffff:127.0.0.1]/hooks",
      "http://10.0.0.7/hooks",
      "http://172.20.1.1/hooks",
      "http://192.168.1.10/hooks",
      "http://169.254.169.254/latest/meta-data/",
      "http://[fd00:ec2::254]/",
      "http://0.0.0.0/",
      "http://100.64.0.1/",
      "http://metadata.example.com/",
      "http://dual.example.com/",
      "http://v6-loopback.example.com/",
      "http://unknown-host.example.com/",
      "http://2130706433/",
    ]) {
      const res = await create({ url, events: ["license.issued"] });
      expect(res.status, url).toBe(400);
      expect(res.error.code, url).toBe("webhook.url_not_allowed");
    }
  });
});

describe("operator-only endpoints", () => {
  it("answer 403 auth.operator_required to members and access tokens, 401 to nobody", async () => {
    const created = await create({ events: ["license.issued"] });
    const token = (await createTokenClient(app, { id: (await createCompany(op, null)).id })).client;
    const delivery = "00000000-0000-4000-8000-000000000000";
    const params = { id: created.body.id };
    for (const client of [viewer.client, token]) {
      const calls: [string, () => Promise<ApiResponse<unknown>>][] = [
        [`GET ${base}`, () => client.api.webhooks.list()],
        [
          `POST ${base}`,
          () =>
            client.api.webhooks.create({
              body: { url: "https://hooks.example.com/x", secret: SECRET, events: ["license.issued"] },
            }),
        ],
        [`GET ${base}/${params.id}`, () => client.api.webhooks.get({ params })],
        [
          `PATCH ${base}/${params.id}`,
          () => client.api.webhooks.update({ params, body: { isActive: false } }),
        ],
        [`DELETE ${base}/${params.id}`, () => client.api.webhooks.delete({ params })],
        [`GET ${base}/${params.id}/deliveries`, () => client.api.webhooks.deliveries({ params })],
        [
          `POST ${base}/deliveries/${delivery}/replay`,
          () => client.api.webhooks.replay({ params: { deliveryId: delivery } }),
        ],
      ];
      for (const [label, call] of calls) {
        const res = await call();
        expect(res.status, label).toBe(403);
        expect(res.error).toEqual({
          code: "auth.operator_required",
          message: expect.any(String),
          status: 403,
        });
      }
    }
    expect((await new TestClient(app.url).api.webhooks.list()).status).toBe(401);
    expect((await getEndpoint(created.body.id)).body.isActive).toBe(true);
  });

  it("GET /event-types answers the catalogue to any signed-in caller", async () => {
    const catalogue = [
      "license.issued",
      "license.revoked",
      "license.expired",
      "license.activated",
      "license.deactivated",
      "license.heartbeat_missed",
      "license.transferred",
      "license.rebound",
      "license.activation_healed",
      "license.device_budget_exhausted",
      "license.seats_exhausted",
    ];
    for (const client of [op, viewer.client]) {
      const res = await client.api.webhooks.eventTypes();
      expect(res.status).toBe(200);
      expect(res.body).toEqual(catalogue);
    }
    expect((await new TestClient(app.url).api.webhooks.eventTypes()).status).toBe(401);
  });
});

describe("PATCH, DELETE and GET /panel/webhooks/{id}", () => {
  it("changes only the fields sent, checks them like creation, and 404s an unknown id", async () => {
    const { body: endpoint } = await create({ events: ["license.issued"] });
    const patched = await update(endpoint.id, { isActive: false, events: ["license.expired"] });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...endpoint, isActive: false, events: ["license.expired"] });
    const refused: [UpdateBody, string][] = [
      [{ secret: "short" }, "webhook.secret_too_short"],
      [{ url: "mailto:ops@example.com" }, "webhook.invalid_url"],
      [{ url: "http://192.168.0.1/" }, "webhook.url_not_allowed"],
      [{ events: ["nope"] }, "webhook.invalid_events"],
    ];
    for (const [body, code] of refused) {
      const res = await update(endpoint.id, body);
      expect(res.status).toBe(400);
      expect(res.error.code).toBe(code);
    }
    expect((await getEndpoint(endpoint.id)).body).toEqual(patched.body);

    const newSecret = "another-secret-that-is-long";
    expect((await update(endpoint.id, { secret: newSecret })).status).toBe(200);
    const [row] = await app.deps.db
      .select()
      .from(tables.webhookEndpoints)
      .where(eq(tables.webhookEndpoints.id, endpoint.id));
    expect(
      app.deps.secrets
        .open(row!.secretSealed, sealedAt(tables.webhookEndpoints.secretSealed, row!.id))
        .toString("utf8"),
    ).toBe(newSecret);
    const audit = await app.deps.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, endpoint.id));
    expect(JSON.stringify(audit)).not.toContain(newSecret);
    expect(audit.find((a) => (a.meta as { secretChanged?: boolean }).secretChanged)).toBeDefined();

    const remove = () => op.api.webhooks.delete({ params: { id: endpoint.id } });
    const deleted = await remove();
    expect(deleted.status).toBe(204);
    for (const res of [await getEndpoint(endpoint.id), await remove(), await update(endpoint.id, {})]) {
      expect(res.status).toBe(404);
      expect(res.error.code).toBe("webhook.not_found");
    }
    expect((await deliveries(endpoint.id)).error.code).toBe("webhook.not_found");
  });

  it("GET /{id}/deliveries takes limit 1..200", async () => {
    const { body: endpoint } = await create({ events: ["license.issued"] });
    for (const limit of ["0", "201", "x", "1.5"]) {
      const res = await op.get(`${base}/${endpoint.id}/deliveries?limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.error.code).toBe("request.invalid");
    }
    for (const limit of [1, 200]) {
      const res = await op.api.webhooks.deliveries({ params: { id: endpoint.id }, query: { limit } });
      expect(res.body).toEqual([]);
    }
  });

  it("replay of an unknown delivery is 404 webhook_delivery.not_found", async () => {
    const res = await op.api.webhooks.replay({
      params: { deliveryId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(res.status).toBe(404);
    expect(res.error.code).toBe("webhook_delivery.not_found");
  });
});

describe("tRPC webhooks.*", () => {
  it("runs the same operations, operator-only except eventTypes", async () => {
    const endpoint = await op.trpc.webhooks.create.mutate({
      url: "https://hooks.example.com/trpc",
      secret: SECRET,
      description: null,
      events: ["license.issued"],
    });
    expect(endpoint).toMatchObject({
      url: "https://hooks.example.com/trpc",
      isActive: true,
      description: "",
    });
    expect(JSON.stringify(endpoint)).not.toContain(SECRET);
    expect((await getEndpoint(endpoint.id)).body).toEqual(endpoint);

    const updated = await op.trpc.webhooks.update.mutate({ id: endpoint.id, isActive: false });
    expect(updated.isActive).toBe(false);
    expect(await op.trpc.webhooks.deliveries.query({ id: endpoint.id, limit: 10 })).toEqual([]);

    const denied = await trpcError(viewer.client.trpc.webhooks.list.query());
    expect(denied.data.httpStatus).toBe(403);
    expect(denied.data.appCode).toBe("auth.operator_required");
    const invalid = await trpcError(
      op.trpc.webhooks.create.mutate({
        url: "https://hooks.example.com/trpc",
        secret: "short",
        events: ["license.issued"],
      }),
    );
    expect(invalid.data.httpStatus).toBe(400);
    expect(invalid.data.appCode).toBe("webhook.secret_too_short");
    const types = await viewer.client.trpc.webhooks.eventTypes.query();
    expect(types).toContain("license.heartbeat_missed");

    await op.trpc.webhooks.delete.mutate({ id: endpoint.id });
    expect((await getEndpoint(endpoint.id)).status).toBe(404);
  });
});

describe("SSRF guard at send time", () => {
  it("checks the address again before every attempt: a host that now resolves inside is refused", async () => {
    const hooks = await startWebhookReceiver({ secret: SECRET, now: () => app.clock.now() });
    try {
      dns.set("rebind.example.com", ["93.184.216.34"]);
      const port = new URL(hooks.url).port;
      const res = await create({
        url: `http://rebind.example.com:${port}/hooks`,
        events: ["license.issued"],
      });
      expect(res.status).toBe(201);
      dns.set("rebind.example.com", ["127.0.0.1"]);
      await issueLicense(op, await createLicensedCompany(op));
      await webhooks.dispatchDueDeliveries(app.deps);
      const [row] = (await deliveries(res.body.id)).body;
      expect(row).toMatchObject({ status: "Pending", attemptCount: 1, responseStatusCode: null });
      expect(row!.lastError).toMatch(/^refused: rebind\.example\.com resolves to 127\.0\.0\.1/);
      expect(hooks.received).toHaveLength(0);
    } finally {
      await hooks.close();
    }
  });
});
