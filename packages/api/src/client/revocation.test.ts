import { verifiesWith, verifyLicenseToken } from "@licensing/core";
import { decodeRevocation } from "@licensing/protocol";
import { describe, expect, it } from "vitest";
import type { IssuedLicense } from "../testing/client-api.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import { createTemplate } from "../testing/licensing.ts";

/**
 * Issue 24 §2 (decision 0049): a template's `revocation` mode, a license's override at issue, the token's
 * `rv`, and the 403 `license.revoked` with a signed revocation that immediate revocation answers.
 */
const suite = useClientApi();
const DAY = 86_400_000;
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const errorBody = (code: string, status: number) => ({ code, message: expect.any(String), status });

const immediateTemplate = () => createTemplate(suite.operator, { revocation: "immediate" });
const issueFor = async (templateId: string, terms: Record<string, unknown> = {}) => {
  const res = await suite.operator.api.licenses.issue({
    body: { companyId: suite.target.companyId, templateId, ...terms },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
};
const revoke = async (license: IssuedLicense) => {
  const res = await suite.operator.api.licenses.revoke({ params: { id: license.id }, body: {} });
  expect(res.status).toBe(204);
};
const activate = async (license: IssuedLicense, hwFingerprint = "fp") =>
  (await suite.app.client()).api.client.activate({ body: { licenseKey: license.licenseKey, hwFingerprint } });
const claimsOf = (license: IssuedLicense) => {
  const verified = verifyLicenseToken(license.token, license.publicKey);
  if (!verified.valid) throw new Error(verified.reason);
  return verified.claims;
};
const keysOf = async (templateId: string) =>
  (await suite.operator.api.templates.signingKeys.list({ params: { id: templateId } })).body;

describe("the revocation mode", () => {
  it("is graceful by default on templates and licenses, and the token says so (rv)", async () => {
    const template = await createTemplate(suite.operator);
    const got = await suite.operator.api.templates.get({ params: { id: template.id } });
    expect(got.body.revocation).toBe("graceful");
    const license = await issueFor(template.id);
    expect(claimsOf(license).rv).toBe("graceful");
    const panel = await suite.operator.api.licenses.get({ params: { id: license.id } });
    expect(panel.body.revocation).toBe("graceful");
  });

  it("is set at create and update, and refused when unknown; licenses keep theirs", async () => {
    const template = await immediateTemplate();
    expect((await suite.operator.api.templates.get({ params: { id: template.id } })).body.revocation).toBe(
      "immediate",
    );
    const before = await issueFor(template.id);
    const updated = await suite.operator.api.templates.update({
      params: { id: template.id },
      body: { revocation: "graceful" },
    });
    expect(updated.body.revocation).toBe("graceful");
    const after = await issueFor(template.id);
    expect([claimsOf(before).rv, claimsOf(after).rv]).toEqual(["immediate", "graceful"]);
    expect((await suite.operator.api.licenses.get({ params: { id: before.id } })).body.revocation).toBe(
      "immediate",
    );

    const bad = await suite.operator.post("/api/v1/panel/templates", {
      name: "x",
      productCode: "BAD-RV",
      defaultOfflineDays: 7,
      defaultValidityDays: 30,
      revocation: "sometimes",
    });
    expect(bad.error).toEqual(errorBody("request.invalid", 400));
    expect(bad.error.message).toContain("revocation");
    const badUpdate = await suite.operator.request("PUT", `/api/v1/panel/templates/${template.id}`, {
      revocation: "never",
    });
    expect(badUpdate.error).toEqual(errorBody("request.invalid", 400));
  });

  it("is the license's own when the issue request (or a bulk issue) overrides the template's", async () => {
    const graceful = await createTemplate(suite.operator);
    const license = await issueFor(graceful.id, { revocation: "immediate" });
    expect(claimsOf(license).rv).toBe("immediate");
    const bulk = await suite.operator.api.licenses.bulkIssue({
      body: {
        templateId: graceful.id,
        revocation: "immediate",
        items: [{ companyId: suite.target.companyId }],
      },
    });
    const id = bulk.body.results[0]!.licenseId!;
    expect((await suite.operator.api.licenses.get({ params: { id } })).body.revocation).toBe("immediate");
    const bad = await suite.operator.post("/api/v1/panel/licenses", {
      companyId: suite.target.companyId,
      templateId: graceful.id,
      revocation: "later",
    });
    expect(bad.error).toEqual(errorBody("request.invalid", 400));
  });
});

describe("an immediate license revoked", () => {
  it("answers activation with 403 license.revoked and a revocation signed by the template's key", async () => {
    const template = await immediateTemplate();
    const license = await issueFor(template.id);
    suite.app.clock.advance(DAY);
    await revoke(license);
    const revokedAt = seconds(suite.app.clock.now());
    suite.app.clock.advance(60_000);
    const res = await activate(license);
    expect(res.status).toBe(403);
    expect(res.error).toEqual({
      ...errorBody("license.revoked", 403),
      revocation: expect.any(String),
    });
    const revocation = decodeRevocation((res.error as { revocation: string }).revocation)!;
    expect(revocation.payload).toEqual({
      lid: license.id,
      status: "Revoked",
      revokedAt,
      iat: seconds(suite.app.clock.now()),
    });
    const [key] = await keysOf(template.id);
    expect(revocation.header).toEqual({ alg: "EdDSA", typ: "license-revocation", kid: key!.id });
    expect(verifiesWith(revocation, license.publicKey)).toBe(true);
  });

  it("answers a heartbeat of a live activation the same way; deactivation and the machines list still answer", async () => {
    const template = await immediateTemplate();
    const { license, activationId, client } = await (async () => {
      const issued = await issueFor(template.id);
      const res = await activate(issued);
      return { license: issued, activationId: res.body.activationId, client: await suite.app.client() };
    })();
    await revoke(license);
    const beat = await suite.signed(client, "heartbeat", { licenseKey: license.licenseKey, activationId });
    expect(beat.status).toBe(403);
    expect(beat.error).toMatchObject({ code: "license.revoked", status: 403 });
    const revocation = decodeRevocation((beat.error as { revocation: string }).revocation)!;
    expect(revocation.payload.lid).toBe(license.id);
    expect(verifiesWith(revocation, license.publicKey)).toBe(true);
    const machines = await suite.signed(client, "machines", { licenseKey: license.licenseKey });
    expect(machines.status).toBe(200);
    const gone = await suite.signed(client, "deactivate", { licenseKey: license.licenseKey, activationId });
    expect(gone.status).toBe(204);
  });

  it("after rotations: the revocation is signed by the Active key and carries its certificate (crt)", async () => {
    const template = await immediateTemplate();
    const license = await issueFor(template.id);
    await suite.operator.api.templates.signingKeys.rotate({ params: { id: template.id } });
    const rotated = (await suite.operator.api.templates.signingKeys.rotate({ params: { id: template.id } }))
      .body;
    await revoke(license);
    const res = await activate(license);
    const revocation = decodeRevocation((res.error as { revocation: string }).revocation)!;
    expect(revocation.header.kid).toBe(rotated.id);
    expect(revocation.header.crt).toEqual(expect.any(String));
    expect(verifiesWith(revocation, rotated.publicKeyHex)).toBe(true);
  });
});

describe("what stays graceful (the spec's rule 5)", () => {
  it("a graceful license revoked: 400 license.not_active without a revocation", async () => {
    const license = await issueFor((await createTemplate(suite.operator)).id);
    await revoke(license);
    const res = await activate(license);
    expect(res.status).toBe(400);
    expect(res.error).toEqual(errorBody("license.not_active", 400));
  });

  it("an immediate template's license issued graceful", async () => {
    const license = await issueFor((await immediateTemplate()).id, { revocation: "graceful" });
    await revoke(license);
    expect((await activate(license)).error).toEqual(errorBody("license.not_active", 400));
  });

  it("an immediate license suspended (reversible), or past its expiry", async () => {
    const template = await immediateTemplate();
    const suspended = await issueFor(template.id);
    await suite.operator.api.licenses.suspend({ params: { id: suspended.id } });
    expect((await activate(suspended)).error).toEqual(errorBody("license.not_active", 400));
    await suite.operator.api.licenses.resume({ params: { id: suspended.id } });
    expect((await activate(suspended)).status).toBe(200);

    const expiring = await issueFor(template.id, {
      expiresAt: new Date(suite.app.clock.now().getTime() + DAY).toISOString(),
    });
    const { body } = await activate(expiring);
    suite.app.clock.advance(2 * DAY);
    const beat = await suite.signed(await suite.app.client(), "heartbeat", {
      licenseKey: expiring.licenseKey,
      activationId: body.activationId,
    });
    expect(beat.error).toEqual(errorBody("license.not_active", 400));
  });
});
