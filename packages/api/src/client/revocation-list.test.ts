import { randomUUID } from "node:crypto";
import { verifiesWith, verifyCertificate } from "@licensing/core";
import { tables } from "@licensing/db";
import { decodeRevocationList, REVOCATION_LIST_PAGE_SIZE } from "@licensing/protocol";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { startTestApp } from "../testing/index.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import { createTemplate } from "../testing/licensing.ts";

/** Issue 24 §2: GET /client/revocations, a template's signed list of licenses revoked with `immediate`. */
const suite = useClientApi();
const DAY = 86_400_000;
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

async function listOf(query: { templateId: string; since?: string; cursor?: string }) {
  const res = await (await suite.app.client()).api.client.revocations({ query });
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body)).toEqual(["list"]);
  const decoded = decodeRevocationList(res.body.list);
  if (!decoded) throw new Error("not a revocation list");
  return decoded;
}
const issue = async (templateId: string, terms: Record<string, unknown> = {}) => {
  const res = await suite.operator.api.licenses.issue({
    body: { companyId: suite.target.companyId, templateId, ...terms },
  });
  return res.body;
};
const revoke = (id: string) => suite.operator.api.licenses.revoke({ params: { id }, body: {} });

describe("GET /client/revocations", () => {
  it("lists the template's immediate licenses revoked since `since`, oldest first, signed by its key", async () => {
    const template = await createTemplate(suite.operator, { revocation: "immediate" });
    const other = await createTemplate(suite.operator, { revocation: "immediate" });
    const [first, second, graceful, live, elsewhere] = [
      await issue(template.id),
      await issue(template.id),
      await issue(template.id, { revocation: "graceful" }),
      await issue(template.id),
      await issue(other.id),
    ];
    const start = suite.app.clock.now();
    await revoke(first!.id);
    suite.app.clock.advance(DAY);
    const secondAt = suite.app.clock.now();
    await revoke(second!.id);
    await revoke(graceful!.id);
    await revoke(elsewhere!.id);
    await suite.operator.api.licenses.suspend({ params: { id: live!.id } });
    suite.app.clock.advance(60_000);

    const all = await listOf({ templateId: template.id });
    expect(all.payload).toEqual({
      tid: template.id,
      tpl: template.productCode,
      since: 0,
      iat: seconds(suite.app.clock.now()),
      revoked: [
        { lid: first!.id, revokedAt: seconds(start) },
        { lid: second!.id, revokedAt: seconds(secondAt) },
      ],
      next: null,
    });
    expect(all.header).toEqual({ alg: "EdDSA", typ: "revocation-list", kid: expect.any(String) });
    expect(verifiesWith(all, first!.publicKey)).toBe(true);

    const since = await listOf({ templateId: template.id, since: secondAt.toISOString() });
    expect(since.payload.since).toBe(seconds(secondAt));
    expect(since.payload.revoked.map((r) => r.lid)).toEqual([second!.id]);
    const none = await listOf({
      templateId: template.id,
      since: new Date(secondAt.getTime() + 1).toISOString(),
    });
    expect(none.payload.revoked).toEqual([]);
  });

  it("after rotations, is signed by the Active key with its certificate from the root in `crt`", async () => {
    const template = await createTemplate(suite.operator, { revocation: "immediate" });
    const license = await issue(template.id);
    await revoke(license!.id);
    const rotated = (await suite.operator.api.templates.signingKeys.rotate({ params: { id: template.id } }))
      .body;
    const list = await listOf({ templateId: template.id });
    expect(list.header.kid).toBe(rotated.id);
    expect(verifyCertificate(list.header.crt!, license!.publicKey)?.pub).toBe(rotated.publicKeyHex);
    expect(verifiesWith(list, rotated.publicKeyHex)).toBe(true);
  });

  it("pages at 10,000 licenses: `next` is the cursor of the page after", async () => {
    const template = await createTemplate(suite.operator, { revocation: "immediate" });
    const license = await issue(template.id);
    const [row] = await suite.app.deps.db
      .select()
      .from(tables.licenses)
      .where(eq(tables.licenses.id, license!.id));
    const revokedAt = suite.app.clock.now();
    // One issued through the API, copied in SQL: each copy revoked a millisecond after the one before.
    await suite.app.deps.db.execute(sql`
      insert into licenses (id, license_key, company_id, template_id, signing_key_id, status, config,
        offline_days, token, expires_at, issued_at, is_trial, hw_binding, updated_at, revoked_at, revocation)
      select gen_random_uuid(), 'SVC-PAGE-' || n, ${row!.companyId}, ${row!.templateId}, ${row!.signingKeyId},
        'Revoked', '{}', 7, 't', ${row!.expiresAt.toISOString()}::timestamptz, now(), false, 'none', now(),
        ${revokedAt.toISOString()}::timestamptz + n * interval '1 millisecond', 'immediate'
      from generate_series(1, ${REVOCATION_LIST_PAGE_SIZE + 1}) as n`);
    const first = await listOf({ templateId: template.id });
    expect(first.payload.revoked).toHaveLength(REVOCATION_LIST_PAGE_SIZE);
    expect(first.payload.next).toEqual(expect.any(String));
    const second = await listOf({ templateId: template.id, cursor: first.payload.next! });
    expect(second.payload.revoked).toHaveLength(1);
    expect(second.payload.next).toBeNull();
    const ids = new Set([...first.payload.revoked, ...second.payload.revoked].map((r) => r.lid));
    expect(ids.size).toBe(REVOCATION_LIST_PAGE_SIZE + 1);
  });

  it("answers 404 for an unknown template, 400 for a bad templateId, since or cursor", async () => {
    const client = await suite.app.client();
    const unknown = await client.api.client.revocations({ query: { templateId: randomUUID() } });
    expect(unknown.error).toEqual(errorBody("template.not_found", 404));
    const path = "/api/v1/client/revocations";
    expect((await client.get(path)).error).toEqual(errorBody("request.invalid", 400));
    expect((await client.get(`${path}?templateId=nope`)).error).toEqual(errorBody("request.invalid", 400));
    const template = await createTemplate(suite.operator);
    const badSince = await client.get(`${path}?templateId=${template.id}&since=yesterday`);
    expect(badSince.error).toEqual(errorBody("request.invalid", 400));
    const badCursor = await client.get(`${path}?templateId=${template.id}&cursor=abc`);
    expect(badCursor.error).toEqual(errorBody("request.invalid", 400));
    expect(badCursor.error.message).toContain("cursor");
  });

  it("needs no credentials, answers an archived template, and is rate-limited as the client API", async () => {
    const template = await createTemplate(suite.operator);
    await suite.operator.api.templates.archive({ params: { id: template.id } });
    expect((await listOf({ templateId: template.id })).payload.revoked).toEqual([]);

    const limited = await startTestApp({ rateLimits: { client: 2 } });
    try {
      const client = await limited.client();
      const path = `/api/v1/client/revocations?templateId=${randomUUID()}`;
      expect((await client.get(path)).status).toBe(404);
      expect((await client.get(path)).status).toBe(404);
      const refused = await client.get(path);
      expect(refused.error).toEqual(errorBody("rate_limit.exceeded", 429));
      expect(refused.headers.get("retry-after")).toEqual(expect.any(String));
    } finally {
      await limited.close();
    }
  });
});
