import { randomBytes } from "node:crypto";
import { DAY, HOUR } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLicensedCompany, issueLicense, signedPost } from "../testing/client-api.ts";
import { startTestApp, type TestApp } from "../testing/index.ts";

// Two apps in one process over one database, their clocks three days apart: as the QA simulator runs a
// server with a virtual clock beside others. Nothing a use-case keeps may leak from one app's Deps to
// the other's.
let early: TestApp;
let late: TestApp;
let target: { companyId: string; templateId: string };
beforeAll(async () => {
  const masterKey = randomBytes(32);
  early = await startTestApp({ masterKey });
  late = await startTestApp({ masterKey, database: early.database });
  late.clock.set(new Date(early.clock.now().getTime() + 3 * DAY));
  target = await createLicensedCompany(await early.client({ signIn: true }));
});
afterAll(async () => {
  await late?.close();
  await early?.close();
});

async function activate(app: TestApp, licenseKey: string) {
  const res = await (await app.client()).api.client.activate({ body: { licenseKey, hwFingerprint: "fp" } });
  expect(res.status).toBe(200);
  return res.body.activationId;
}

const beat = async (app: TestApp, licenseKey: string, activationId: string) =>
  signedPost(await app.client(), app.clock.now(), "/api/v1/client/heartbeat", { licenseKey, activationId });

describe("two apps with different clocks in one process", () => {
  it("hold their own state", () => {
    for (const part of ["passwords", "signingKeys", "configValidators", "activations"] as const) {
      expect(late.deps[part]).not.toBe(early.deps[part]);
    }
  });

  it("stamp heartbeats with their own clock, even when they beat one after the other", async () => {
    const operator = await early.client({ signIn: true });
    const license = await issueLicense(operator, target, {
      expiresAt: new Date(early.clock.now().getTime() + 30 * DAY).toISOString(),
    });
    const activationId = await activate(early, license.licenseKey);
    expect((await beat(early, license.licenseKey, activationId)).status).toBe(200);
    expect((await beat(late, license.licenseKey, activationId)).status).toBe(200);
    const heartbeats = await operator.api.activations.heartbeats({ params: { id: license.id } });
    expect(heartbeats.body.map((h) => h.occurredAt).sort()).toEqual([
      early.clock.now().toISOString(),
      late.clock.now().toISOString(),
    ]);
    const activations = await operator.api.activations.list({ params: { id: license.id } });
    expect(activations.body[0]!.lastHeartbeatAt).toBe(late.clock.now().toISOString());
  });

  it("judge expiry by their own clock", async () => {
    const operator = await early.client({ signIn: true });
    const license = await issueLicense(operator, target, {
      expiresAt: new Date(early.clock.now().getTime() + DAY + HOUR).toISOString(),
    });
    const activationId = await activate(early, license.licenseKey);
    expect((await beat(early, license.licenseKey, activationId)).status).toBe(200);
    const res = await beat(late, license.licenseKey, activationId);
    expect(res.status).toBe(400);
    expect(res.error.code).toBe("license.not_active");
  });
});
