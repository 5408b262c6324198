import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "../testing/api-client.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { addVersion, createTemplate, verifyWithJose } from "../testing/licensing.ts";
import {
  archiveSeededCompany,
  createMember,
  seedCompany,
  createTokenClient,
  type SeededCompany,
} from "../testing/fixtures.ts";

const url = "/api/v1/panel/licenses";
const DAY = 86_400_000;
let app: TestApp;
let operator: TestClient;
let admin: TestClient;
let company: SeededCompany;
let template: { id: string; productCode: string };

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  company = await seedCompany(app);
  admin = (await createTokenClient(app, company)).client;
  template = await createTemplate(operator, { defaultOfflineDays: 10, defaultValidityDays: 90 });
});
afterAll(() => app.close());

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
type IssueBody = BodyOf<typeof operations.licenses.issue>;
const issue = (body: Partial<IssueBody>, client = admin, headers?: Record<string, string>) =>
  client.api.licenses.issue({
    body: { companyId: company.id, templateId: template.id, config: "{}", ...body },
    ...(headers ? { headers } : {}),
  });
/** A request the schema refuses, sent as it is. */
const issueUntyped = (body: Record<string, unknown>) =>
  admin.post(url, { companyId: company.id, templateId: template.id, config: "{}", ...body });
const getLicense = async (id: string) => (await admin.api.licenses.get({ params: { id } })).body;
const nowSeconds = () => Math.floor(app.clock.now().getTime() / 1000);

describe("POST /panel/licenses", () => {
  it("issues a license whose JWS token verifies with jose and the returned hex public key", async () => {
    const res = await issue({ config: '{"features":["export"],"limits":{"maxSeats":2},"edition":"pro"}' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      licenseKey: expect.stringMatching(/^SVC(-[0-9A-HJKMNP-TV-Z]{5}){5}$/),
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      publicKey: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const [key] = (await admin.api.templates.signingKeys.list({ params: { id: template.id } })).body;
    expect(res.body.publicKey).toBe(key!.publicKeyHex);
    const { claims, header } = await verifyWithJose(res.body.token, res.body.publicKey, app.clock.now());
    expect(header).toEqual({ alg: "EdDSA", typ: "JWT", kid: key!.id });
    expect(claims).toEqual({
      iss: app.deps.config.publicBaseUrl,
      sub: company.id,
      lid: res.body.id,
      lk: res.body.licenseKey,
      tpl: template.productCode,
      ver: 1,
      iat: nowSeconds(),
      exp: nowSeconds() + 90 * 86_400,
      trial: false,
      hw: { mode: "none", fp: null },
      fm: "fuzzy",
      sm: "nodeLocked",
      ls: 900,
      mb: 0,
      rv: "graceful",
      cfg: { features: ["export"], limits: { maxSeats: 2 }, edition: "pro" },
    });
  });

  it("stores the license, a license.issued outbox event and an audit row in one go", async () => {
    const res = await issue({});
    const got = await admin.api.licenses.get({ params: { id: res.body.id } });
    expect(got.body).toEqual({
      id: res.body.id,
      licenseKey: res.body.licenseKey,
      companyId: company.id,
      templateId: template.id,
      status: "Active",
      config: '{"features":[],"limits":{}}',
      offlineDays: 10,
      currentVersion: 1,
      expiresAt: new Date(app.clock.now().getTime() + 90 * DAY).toISOString(),
      issuedAt: app.clock.now().toISOString(),
      activatedAt: null,
      lastHeartbeatAt: null,
      revokedAt: null,
      revocationReason: null,
      isTrial: false,
      hwBinding: "none",
      hwFingerprint: null,
      fingerprintMatch: "fuzzy",
      revocation: "graceful",
      deviceBudget: { used: 0, max: null, windowDays: 30, resetsAt: null },
      seatModel: "nodeLocked",
      leaseSeconds: 900,
      maxBorrowDays: 0,
    });
    const events = await app.database.db.select().from(tables.outboxEvents);
    expect(events.find((e) => e.data.licenseId === res.body.id)).toMatchObject({
      eventType: "license.issued",
      data: {
        licenseId: res.body.id,
        licenseKey: res.body.licenseKey,
        companyId: company.id,
        templateId: template.id,
        expiresAt: got.body.expiresAt,
      },
    });
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, res.body.id));
    expect(audit).toMatchObject([{ action: "license.issued", entityType: "license" }]);
  });

  it("rule 1: expiresAt null is now + defaultValidityDays, or now + 14 days for a trial; a given one is kept", async () => {
    const trial = await issue({ isTrial: true, expiresAt: null });
    const trialClaims = (await verifyWithJose(trial.body.token, trial.body.publicKey)).claims;
    expect(trialClaims.exp).toBe(nowSeconds() + 14 * 86_400);
    expect(trialClaims.trial).toBe(true);
    const at = new Date(app.clock.now().getTime() + 5 * DAY).toISOString();
    const fixed = await issue({ expiresAt: at });
    expect((await getLicense(fixed.body.id)).expiresAt).toBe(at);
    const past = await issue({ expiresAt: new Date(app.clock.now().getTime() - 1000).toISOString() });
    expect(past.error).toEqual(errorBody("license.invalid_expiry", 400));
  });

  it("rule 2: offlineDays is clamped to 1..LICENSING_MAX_OFFLINE_DAYS and defaults to the template's", async () => {
    const offlineDays = async (value: number | null) =>
      (await getLicense((await issue({ offlineDays: value })).body.id)).offlineDays;
    expect([
      await offlineDays(0),
      await offlineDays(-3),
      await offlineDays(31),
      await offlineDays(12),
    ]).toEqual([1, 1, 30, 12]);
    expect(await offlineDays(null)).toBe(10);
  });

  it("rule 3: without hwBinding a fingerprint gives fixed and no fingerprint gives none", async () => {
    const pinned = await issue({ hwFingerprint: "machine-a" });
    expect((await verifyWithJose(pinned.body.token, pinned.body.publicKey)).claims.hw).toEqual({
      mode: "fixed",
      fp: "machine-a",
    });
    const first = await issue({ hwBinding: "firstActivation" });
    expect(await getLicense(first.body.id)).toMatchObject({
      hwBinding: "firstActivation",
      hwFingerprint: null,
    });
    expect((await issue({ hwBinding: "fixed" })).error).toEqual(errorBody("license.invalid_binding", 400));
    expect((await issue({ hwBinding: "none", hwFingerprint: "m" })).error).toEqual(
      errorBody("license.invalid_binding", 400),
    );
  });

  it("checks config against the current version's configSchema, naming the failing path, after applying its defaults", async () => {
    const versioned = await createTemplate(operator);
    await addVersion(operator, versioned.id, {
      configSchema: JSON.stringify({
        type: "object",
        properties: {
          limits: { type: "object", properties: { maxSeats: { type: "integer" } } },
          tier: { enum: ["basic", "pro"] },
        },
        required: ["tier"],
      }),
      defaults: '{"tier":"basic","features":["core"]}',
    });
    const ok = await issue({ templateId: versioned.id, config: '{"limits":{"maxSeats":3}}' });
    expect(ok.status).toBe(201);
    expect((await verifyWithJose(ok.body.token, ok.body.publicKey)).claims.cfg).toEqual({
      features: ["core"],
      limits: { maxSeats: 3 },
      tier: "basic",
    });
    const bad = await issue({
      templateId: versioned.id,
      config: '{"limits":{"maxSeats":"many"},"tier":"gold"}',
    });
    expect(bad.error).toEqual(errorBody("license.invalid_config", 400));
    expect(bad.error.message).toContain("/limits/maxSeats");
    expect(bad.error.message).toContain("/tier");
  });

  it("accepts any maxSeats without a schema: missing, zero or non-numeric simply means no limit", async () => {
    for (const maxSeats of [0, "unlimited", -1, 2.5, null]) {
      const res = await issue({ config: JSON.stringify({ features: [], limits: { maxSeats } }) });
      expect(res.status, String(maxSeats)).toBe(201);
    }
  });

  it("refuses malformed config with 400 saying where, and a config of the wrong shape", async () => {
    const broken = await issue({ config: '{"features": [}' });
    expect(broken.error).toEqual(errorBody("license.invalid_config", 400));
    expect(broken.error.message).toContain("line 1, column 15");
    for (const config of ["[]", '{"features":"x"}', '{"features":[1]}', '{"limits":[]}']) {
      expect((await issue({ config })).error, config).toEqual(errorBody("license.invalid_config", 400));
    }
  });

  it.each([
    ["an unknown companyId format", { companyId: "nope" }],
    ["a config that is not a string", { config: { features: [] } }],
    ["an expiresAt that is no timestamp", { expiresAt: "tomorrow" }],
    ["a non-integer offlineDays", { offlineDays: 1.5 }],
    ["an unknown hwBinding", { hwBinding: "sometimes" }],
    ["a too-long fingerprint", { hwFingerprint: "f".repeat(257) }],
    ["a non-boolean isTrial", { isTrial: "yes" }],
  ])("refuses %s as request.invalid", async (_label, body) => {
    expect((await issueUntyped(body)).error).toEqual(errorBody("request.invalid", 400));
  });

  it("refuses an archived company with license.company_not_active", async () => {
    const archived = await seedCompany(app, { parent: company });
    await archiveSeededCompany(app, archived);
    expect((await issue({ companyId: archived.id })).error).toEqual(
      errorBody("license.company_not_active", 400),
    );
  });

  it("needs Admin on the company: a viewer gets 403, an outsider 404, an archived or unknown template fails", async () => {
    const viewer = (await createMember(app, { companyId: company.id, role: "viewer" })).client;
    expect((await issue({}, viewer)).error).toEqual(errorBody("auth.forbidden", 403));
    const outsider = (await createTokenClient(app, await seedCompany(app))).client;
    expect((await issue({}, outsider)).error).toEqual(errorBody("company.not_found", 404));
    const child = await seedCompany(app, { parent: company });
    expect((await issue({ companyId: child.id })).status).toBe(201);
    expect((await issue({ templateId: "00000000-0000-4000-8000-000000000000" })).error).toEqual(
      errorBody("template.not_found", 404),
    );
    const retired = await createTemplate(operator);
    await operator.api.templates.archive({ params: { id: retired.id } });
    expect((await issue({ templateId: retired.id })).error).toEqual(errorBody("template.archived", 409));
    expect((await (await app.client()).post(url, {})).status).toBe(401);
  });
});

describe("POST /panel/licenses with Idempotency-Key", () => {
  const count = async () => (await app.database.db.select().from(tables.licenses)).length;

  it("answers a repeat with the first response and issues nothing new", async () => {
    const before = await count();
    const first = await issue({ isTrial: true }, admin, { "idempotency-key": "pay-1" });
    const again = await issue({ isTrial: true }, admin, { "idempotency-key": "pay-1" });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(await count()).toBe(before + 1);
  });

  it("refuses the same key with a different body, and keeps keys of different callers apart", async () => {
    await issue({}, admin, { "idempotency-key": "pay-2" });
    const different = await issue({ isTrial: true }, admin, { "idempotency-key": "pay-2" });
    expect(different.error).toEqual(errorBody("idempotency.key_reused", 409));
    const other = await issue({ isTrial: true }, operator, { "idempotency-key": "pay-2" });
    expect(other.status).toBe(201);
    expect((await issue({}, admin, { "idempotency-key": "x".repeat(256) })).error).toEqual(
      errorBody("idempotency.invalid_key", 400),
    );
  });

  it("issues once when two requests with the same key race", async () => {
    const before = await count();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => issue({ offlineDays: 3 }, admin, { "idempotency-key": "race-1" })),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it("forgets a key after 24 hours", async () => {
    const first = await issue({}, admin, { "idempotency-key": "old" });
    app.clock.advance(24 * 3_600_000 + 1000);
    const later = await issue({}, admin, { "idempotency-key": "old" });
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
  });

  it("does not store a failed request: a corrected repeat is not replayed", async () => {
    const archived = await seedCompany(app, { parent: company });
    await archiveSeededCompany(app, archived);
    const failed = await issue({ companyId: archived.id }, admin, { "idempotency-key": "fail-1" });
    expect(failed.status).toBe(400);
    const again = await issue({ companyId: archived.id }, admin, { "idempotency-key": "fail-1" });
    expect(again.error).toEqual(failed.error);
  });
});

describe("licenses.issue and licenses.bulkIssue on tRPC with Idempotency-Key", () => {
  const count = async () => (await app.database.db.select().from(tables.licenses)).length;
  const withKey = (key: string) => ({ context: { headers: { "idempotency-key": key } } });
  const input = (body: Partial<IssueBody> = {}) => ({
    companyId: company.id,
    templateId: template.id,
    config: "{}",
    ...body,
  });
  const appCode = (error: unknown) => (error as { data?: { appCode?: string } }).data?.appCode;

  it("answers a repeat of licenses.issue with the first license and refuses the key with another body", async () => {
    const before = await count();
    const first = await admin.trpc.licenses.issue.mutate(input({ isTrial: true }), withKey("trpc-1"));
    const again = await admin.trpc.licenses.issue.mutate(input({ isTrial: true }), withKey("trpc-1"));
    expect(again).toEqual(first);
    expect(await count()).toBe(before + 1);
    const reused = await admin.trpc.licenses.issue
      .mutate(input(), withKey("trpc-1"))
      .catch((e: unknown) => e);
    expect(appCode(reused)).toBe("idempotency.key_reused");
    expect(await count()).toBe(before + 1);
  });

  it("shares the key with REST: the same request replays whichever transport sent it first", async () => {
    const rest = await issue({ offlineDays: 4 }, admin, { "idempotency-key": "both-ways" });
    const trpc = await admin.trpc.licenses.issue.mutate(input({ offlineDays: 4 }), withKey("both-ways"));
    expect(trpc).toEqual(rest.body);
  });

  it("answers a repeat of licenses.bulkIssue with the same licenses and refuses the key with another body", async () => {
    const before = await count();
    const bulk = {
      templateId: template.id,
      items: [{ companyId: company.id }, { companyId: company.id }],
    };
    const first = await admin.trpc.licenses.bulkIssue.mutate(bulk, withKey("bulk-1"));
    expect(first.succeeded).toBe(2);
    const again = await admin.trpc.licenses.bulkIssue.mutate(bulk, withKey("bulk-1"));
    expect(again.results.map((r) => r.licenseId)).toEqual(first.results.map((r) => r.licenseId));
    expect(await count()).toBe(before + 2);
    const reused = await admin.trpc.licenses.bulkIssue
      .mutate({ ...bulk, items: [{ companyId: company.id }] }, withKey("bulk-1"))
      .catch((e: unknown) => e);
    expect(appCode(reused)).toBe("idempotency.key_reused");
    expect(await count()).toBe(before + 2);
  });

  it("refuses a key on a batch of several calls, since one key covers one call", async () => {
    const before = await count();
    const batch = { "0": { json: input() }, "1": { json: input() } };
    const res = await admin.request("POST", "/trpc/licenses.issue,licenses.issue?batch=1", batch, {
      "idempotency-key": "batched",
    });
    const answers = res.json as { error?: { json: { data: { appCode: string } } } }[];
    expect(answers.map((a) => a.error?.json.data.appCode)).toEqual(["request.invalid", "request.invalid"]);
    expect(await count()).toBe(before);
  });
});
