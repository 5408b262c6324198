import { randomUUID } from "node:crypto";
import { verifyLicenseToken } from "@licensing/core";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "../testing/api-client.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate, verifyWithJose } from "../testing/licensing.ts";
import {
  archiveSeededCompany,
  createMember,
  seedCompany,
  createTokenClient,
  type SeededCompany,
} from "../testing/fixtures.ts";

const url = "/api/v1/panel/licenses";
let app: TestApp;
let operator: TestClient;
let admin: TestClient;
let viewer: TestClient;
let company: SeededCompany;
let template: { id: string };

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  company = await seedCompany(app);
  admin = (await createTokenClient(app, company)).client;
  viewer = (await createMember(app, { companyId: company.id, role: "viewer" })).client;
  template = await createTemplate(operator);
});
afterAll(() => app.close());

const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });
const issue = async (extra: Partial<BodyOf<typeof operations.licenses.issue>> = {}) =>
  (
    await admin.api.licenses.issue({
      body: {
        companyId: company.id,
        templateId: template.id,
        config: '{"features":["a"],"limits":{"maxSeats":2}}',
        ...extra,
      },
    })
  ).body;
const unknownId = "00000000-0000-4000-8000-000000000000";
const byId = (id: string) => ({ params: { id } });

/** Active activation rows, as the client API will write them. */
async function activate(licenseId: string, count: number) {
  const rows = Array.from({ length: count }, () => ({
    id: randomUUID(),
    licenseId,
    companyId: company.id,
    templateId: template.id,
    hwFingerprint: `fp-${randomUUID().slice(0, 6)}`,
    status: "active" as const,
    activatedAt: app.clock.now(),
  }));
  await app.database.db.insert(tables.activations).values(rows);
  return rows.map((r) => r.id);
}
const activationsOf = (licenseId: string) =>
  app.database.db.select().from(tables.activations).where(eq(tables.activations.licenseId, licenseId));
const eventsOf = async (licenseId: string) =>
  (await app.database.db.select().from(tables.outboxEvents)).filter((e) => e.data.licenseId === licenseId);

describe("GET /panel/licenses/{id}", () => {
  it("answers a viewer, 404 for an outsider and an unknown id, 400 for a malformed id", async () => {
    const license = await issue();
    expect((await viewer.api.licenses.get(byId(license.id))).body.id).toBe(license.id);
    const outsider = (await createTokenClient(app, await seedCompany(app))).client;
    expect((await outsider.api.licenses.get(byId(license.id))).error).toEqual(
      errorBody("license.not_found", 404),
    );
    expect((await viewer.api.licenses.get(byId(unknownId))).error).toEqual(
      errorBody("license.not_found", 404),
    );
    // A path the schema refuses, sent as it is.
    expect((await viewer.get(`${url}/x`)).error).toEqual(errorBody("request.invalid", 400));
  });
});

describe("POST /panel/licenses/{id}/revoke", () => {
  it("revokes with 204, records revokedAt and the reason, publishes license.revoked and audits", async () => {
    const license = await issue();
    const res = await admin.api.licenses.revoke({ ...byId(license.id), body: { reason: "chargeback" } });
    expect(res.status).toBe(204);
    expect((await viewer.api.licenses.get(byId(license.id))).body).toMatchObject({
      status: "Revoked",
      revokedAt: app.clock.now().toISOString(),
      revocationReason: "chargeback",
    });
    expect((await eventsOf(license.id)).map((e) => [e.eventType, e.data])).toContainEqual([
      "license.revoked",
      {
        licenseId: license.id,
        licenseKey: license.licenseKey,
        reason: "chargeback",
        revokedAt: app.clock.now().toISOString(),
      },
    ]);
    const audit = await app.database.db
      .select()
      .from(tables.auditLog)
      .where(eq(tables.auditLog.entityId, license.id));
    expect(audit.map((a) => a.action)).toEqual(["license.issued", "license.revoked"]);
    expect((await admin.api.licenses.revoke(byId(license.id))).error).toEqual(
      errorBody("license.already_revoked", 409),
    );
  });

  it("takes no body as well, and refuses a viewer, an outsider and a bad reason", async () => {
    const license = await issue();
    expect((await viewer.api.licenses.revoke(byId(license.id))).error).toEqual(
      errorBody("auth.forbidden", 403),
    );
    // Bodies the schema refuses, sent as they are.
    expect((await admin.post(`${url}/${license.id}/revoke`, { reason: 5 })).error).toEqual(
      errorBody("request.invalid", 400),
    );
    expect((await admin.post(`${url}/${license.id}/revoke`, { reason: "r".repeat(1001) })).status).toBe(400);
    expect((await admin.api.licenses.revoke(byId(unknownId))).error).toEqual(
      errorBody("license.not_found", 404),
    );
    expect((await admin.api.licenses.revoke(byId(license.id))).status).toBe(204);
    expect((await viewer.api.licenses.get(byId(license.id))).body.revocationReason).toBeNull();
  });
});

describe("POST /panel/licenses/{id}/suspend and /resume", () => {
  it("moves Active → Suspended → Active and refuses other moves with 409", async () => {
    const license = await issue();
    const suspended = await admin.api.licenses.suspend(byId(license.id));
    expect(suspended.body.status).toBe("Suspended");
    expect((await admin.api.licenses.suspend(byId(license.id))).error).toEqual(
      errorBody("license.invalid_transition", 409),
    );
    expect((await admin.api.licenses.resume(byId(license.id))).body.status).toBe("Active");
    expect((await admin.api.licenses.resume(byId(license.id))).error).toEqual(
      errorBody("license.invalid_transition", 409),
    );
    expect((await viewer.api.licenses.suspend(byId(license.id))).error).toEqual(
      errorBody("auth.forbidden", 403),
    );
  });
});

describe("POST /panel/licenses/{id}/transfer", () => {
  it("re-signs version 2 for the new company with the same key and config, and deactivates every activation", async () => {
    const license = await issue({ hwFingerprint: "m1" });
    const activationIds = await activate(license.id, 2);
    const target = await seedCompany(app, { parent: company });
    const res = await admin.api.licenses.transfer({ ...byId(license.id), body: { newCompanyId: target.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      licenseId: license.id,
      licenseKey: license.licenseKey,
      companyId: target.id,
      currentVersion: 2,
      token: expect.any(String),
      publicKey: license.publicKey,
      deactivatedActivations: 2,
    });
    const before = (await verifyWithJose(license.token, license.publicKey)).claims;
    const after = (await verifyWithJose(res.body.token, res.body.publicKey)).claims;
    expect(after).toEqual({ ...before, sub: target.id, ver: 2, iat: after.iat });
    expect((await activationsOf(license.id)).map((a) => [a.status, a.deactivatedAt?.toISOString()])).toEqual([
      ["deactivated", app.clock.now().toISOString()],
      ["deactivated", app.clock.now().toISOString()],
    ]);
    const events = await eventsOf(license.id);
    expect(
      events
        .filter((e) => e.eventType === "license.deactivated")
        .map((e) => e.data.activationId)
        .sort(),
    ).toEqual(activationIds.sort());
    expect(events.find((e) => e.eventType === "license.transferred")?.data).toEqual({
      licenseId: license.id,
      licenseKey: license.licenseKey,
      fromCompanyId: company.id,
      toCompanyId: target.id,
      currentVersion: 2,
    });
    const file = await admin.api.licenses.file(byId(license.id));
    expect(file.body.token).toBe(res.body.token);
  });

  it("needs Admin on both companies, an active target other than the current one, and a license not revoked", async () => {
    const license = await issue();
    const elsewhere = await seedCompany(app);
    const transfer = (client: TestClient, newCompanyId: string) =>
      client.api.licenses.transfer({ ...byId(license.id), body: { newCompanyId } });
    expect((await transfer(admin, elsewhere.id)).error).toEqual(errorBody("company.not_found", 404));
    expect((await transfer(viewer, company.id)).error).toEqual(errorBody("auth.forbidden", 403));
    expect((await transfer(admin, company.id)).error).toEqual(errorBody("license.same_company", 400));
    const archived = await seedCompany(app, { parent: company });
    await archiveSeededCompany(app, archived);
    expect((await transfer(admin, archived.id)).error).toEqual(errorBody("license.company_not_active", 400));
    // A body the schema refuses, sent as it is.
    expect((await admin.post(`${url}/${license.id}/transfer`, { newCompanyId: "x" })).status).toBe(400);
    await admin.api.licenses.revoke(byId(license.id));
    expect((await transfer(operator, elsewhere.id)).error).toEqual(
      errorBody("license.invalid_transition", 409),
    );
    expect((await viewer.api.licenses.get(byId(license.id))).body.currentVersion).toBe(1);
  });
});

describe("POST /panel/licenses/{id}/rebind", () => {
  const rebind = (id: string, body: BodyOf<typeof operations.licenses.rebind>) =>
    admin.api.licenses.rebind({ ...byId(id), body });
  /** A body the schema refuses, sent as it is. */
  const rebindUntyped = (id: string, body: Record<string, unknown>) =>
    admin.post(`${url}/${id}/rebind`, body);

  it("rule 1: a fingerprint pins the license (fixed); every activation is deactivated; license.rebound", async () => {
    const license = await issue();
    await activate(license.id, 3);
    const res = await rebind(license.id, { hwFingerprint: "new-machine", reason: "new laptop" });
    expect(res.body).toMatchObject({ hwBinding: "fixed", hwFingerprint: "new-machine", currentVersion: 2 });
    expect((await activationsOf(license.id)).every((a) => a.status === "deactivated")).toBe(true);
    expect((await eventsOf(license.id)).find((e) => e.eventType === "license.rebound")?.data).toEqual({
      licenseId: license.id,
      licenseKey: license.licenseKey,
      hwBinding: "fixed",
      hwFingerprint: "new-machine",
      currentVersion: 2,
      reason: "new laptop",
    });
    const file = (await admin.api.licenses.file(byId(license.id))).body;
    expect((await verifyWithJose(file.token, file.publicKey)).claims).toMatchObject({
      ver: 2,
      hw: { mode: "fixed", fp: "new-machine" },
    });
  });

  it("rule 2: a null fingerprint releases: fixed → firstActivation, none stays none", async () => {
    const fixed = await issue({ hwFingerprint: "m" });
    expect((await rebind(fixed.id, { hwFingerprint: null })).body).toMatchObject({
      hwBinding: "firstActivation",
      hwFingerprint: null,
    });
    const none = await issue();
    expect((await rebind(none.id, { hwFingerprint: null })).body).toMatchObject({
      hwBinding: "none",
      currentVersion: 2,
    });
  });

  it("rule 3: hwBinding forces the mode", async () => {
    const license = await issue({ hwFingerprint: "m" });
    expect((await rebind(license.id, { hwFingerprint: null, hwBinding: "none" })).body.hwBinding).toBe(
      "none",
    );
    expect(
      (await rebind(license.id, { hwFingerprint: "m2", hwBinding: "firstActivation" })).body,
    ).toMatchObject({
      hwBinding: "firstActivation",
      hwFingerprint: "m2",
      currentVersion: 3,
    });
  });

  it("refuses none with a fingerprint, as issue does, and changes nothing", async () => {
    const license = await issue({ hwFingerprint: "m" });
    expect((await rebind(license.id, { hwFingerprint: "m2", hwBinding: "none" })).error).toEqual(
      errorBody("license.invalid_binding", 400),
    );
    expect((await admin.api.licenses.get(byId(license.id))).body).toMatchObject({
      hwBinding: "fixed",
      hwFingerprint: "m",
      currentVersion: 1,
    });
  });

  it("refuses a missing hwFingerprint field, a viewer and an unknown license", async () => {
    const license = await issue();
    expect((await rebindUntyped(license.id, {})).error).toEqual(errorBody("request.invalid", 400));
    expect((await rebindUntyped(license.id, { hwFingerprint: "" })).error).toEqual(
      errorBody("request.invalid", 400),
    );
    expect(
      (await viewer.api.licenses.rebind({ ...byId(license.id), body: { hwFingerprint: null } })).status,
    ).toBe(403);
    expect((await rebind(unknownId, { hwFingerprint: null })).error).toEqual(
      errorBody("license.not_found", 404),
    );
  });
});

describe("GET /panel/licenses/{id}/download and /public-key", () => {
  it("serves <licenseKey>.lic as application/octet-stream with {licenseKey, token, publicKey}", async () => {
    const license = await issue();
    const res = await viewer.api.licenses.file(byId(license.id));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${license.licenseKey}.lic"`);
    expect(JSON.parse(res.text)).toEqual({
      licenseKey: license.licenseKey,
      token: license.token,
      publicKey: license.publicKey,
    });
    expect((await viewer.api.licenses.publicKey(byId(license.id))).body).toEqual({
      publicKey: license.publicKey,
    });
    const outsider = (await createTokenClient(app, await seedCompany(app))).client;
    expect((await outsider.api.licenses.file(byId(license.id))).error).toEqual(
      errorBody("license.not_found", 404),
    );
    expect((await outsider.api.licenses.publicKey(byId(license.id))).status).toBe(404);
  });

  it("keeps old tokens verifiable after rotation; re-signing then uses the new key", async () => {
    const license = await issue();
    const rotated = await operator.api.templates.signingKeys.rotate(byId(template.id));
    const keys = (await viewer.api.templates.signingKeys.list(byId(template.id))).body;
    const old = keys.find((k) => k.publicKeyHex === license.publicKey);
    expect(old!.status).toBe("Inactive");
    await verifyWithJose(license.token, old!.publicKeyHex);
    expect((await viewer.api.licenses.publicKey(byId(license.id))).body.publicKey).toBe(license.publicKey);

    const rebound = await admin.api.licenses.rebind({ ...byId(license.id), body: { hwFingerprint: "m" } });
    expect(rebound.status).toBe(200);
    const file = (await viewer.api.licenses.file(byId(license.id))).body;
    expect(file.publicKey).toBe(rotated.body.publicKeyHex);
    expect((await verifyWithJose(file.token, file.publicKey)).header.kid).toBe(rotated.body.id);
    await expect(verifyWithJose(file.token, license.publicKey)).rejects.toThrow();
    const fresh = await issue();
    expect(fresh.publicKey).toBe(rotated.body.publicKeyHex);
  });

  it("issued tokens fail verification when tampered with: any changed character, alg none, another key", async () => {
    const license = await issue();
    const token = license.token;
    // Our verifier (the SDK's rules) insists on canonical base64url, so every changed character fails.
    for (let i = 0; i < token.length; i += 1) {
      const tampered = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
      expect(verifyLicenseToken(tampered, license.publicKey).valid, `character ${i}`).toBe(false);
    }
    // jose decodes leniently (unused trailing bits), so it gets every flipped bit of the decoded bytes.
    const segments = token.split(".");
    for (const [index, segment] of segments.entries()) {
      const bytes = Buffer.from(segment, "base64url");
      for (let byte = 0; byte < bytes.length; byte++) {
        const flipped = Buffer.from(bytes);
        flipped[byte]! ^= 0x01;
        const parts = [...segments];
        parts[index] = flipped.toString("base64url");
        await expect(
          verifyWithJose(parts.join("."), license.publicKey),
          `segment ${index} byte ${byte}`,
        ).rejects.toThrow();
      }
    }
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${segments[1]}.`;
    await expect(verifyWithJose(none, license.publicKey)).rejects.toThrow();
    expect(verifyLicenseToken(none, license.publicKey).valid).toBe(false);
    const otherTemplate = await createTemplate(operator);
    const other = await admin.api.licenses.issue({
      body: { companyId: company.id, templateId: otherTemplate.id },
    });
    await expect(verifyWithJose(token, other.body.publicKey)).rejects.toThrow();
    expect(verifyLicenseToken(token, other.body.publicKey)).toEqual({
      valid: false,
      reason: "bad_signature",
    });
  });
});
