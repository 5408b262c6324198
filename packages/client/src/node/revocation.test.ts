import { generateKeyPairSync } from "node:crypto";
import { access, readFile } from "node:fs/promises";
import { signRevocation } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TimerKind } from "../client/scheduler.ts";
import type { ClientStatus } from "../status/derive-status.ts";
import {
  manualScheduler,
  offlineFetch,
  startSdkTestServer,
  type LicenseOnDisk,
  type SdkTestServer,
} from "../../testing/index.ts";

/**
 * Issue 24 §2 against the real server: immediate revocation reaches an online program within one heartbeat
 * and stays after an offline restart; a forged refusal changes nothing; the revocation list reaches a
 * machine that never goes online; graceful revocation is the spec's rule 5, unchanged.
 */
const SECOND = 1000;
const DAY = 86_400 * SECOND;
const PATIENCE = { timeout: 15_000 };
const network = (_delayMs: number, kind: TimerKind) => kind === "network";
let server: SdkTestServer;
beforeAll(async () => {
  server = await startSdkTestServer();
});
afterAll(() => server.close());

const immediate = () => server.licenseOnDisk({ revocation: "immediate" });
const revoke = async (onDisk: LicenseOnDisk) => {
  const res = await server.admin.api.licenses.revoke({ params: { id: onDisk.license.id }, body: {} });
  expect(res.status).toBe(204);
};
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );
async function revocationList(onDisk: LicenseOnDisk) {
  const { templateId } = (await server.admin.api.licenses.get({ params: { id: onDisk.license.id } })).body;
  const res = await (await server.app.client()).api.client.revocations({ query: { templateId } });
  expect(res.status).toBe(200);
  return res.body.list;
}

describe("immediate revocation of an online program", () => {
  it("is Revoked within one heartbeat, tells the listeners, stops heartbeats and stays Revoked offline", async () => {
    const onDisk = await immediate();
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { scheduler, deactivateOnDispose: false });
    const seen: Array<[ClientStatus, ClientStatus]> = [];
    client.onStatusChange((status, previous) => seen.push([status, previous]));
    expect(await client.initialize()).toBe(true);
    expect(client.status).toBe("Active");
    server.app.clock.advance(60 * SECOND);
    await revoke(onDisk);
    const revokedAt = Math.floor(server.clock() / 1000) * 1000;

    server.app.clock.advance(900 * SECOND);
    scheduler.fire(network);
    // The listeners hear it once the revocation is written down.
    await expect.poll(() => seen.length, PATIENCE).toBe(2);
    expect(client.statusDetails).toMatchObject({
      status: "Revoked",
      reason: "revoked",
      heartbeating: false,
      lastError: { code: "license.revoked", status: 403 },
    });
    expect(client.isUsable).toBe(false);
    expect(seen).toEqual([
      ["Active", "Invalid"],
      ["Revoked", "Active"],
    ]);
    await expect.poll(() => exists(`${onDisk.path}.hb`), PATIENCE).toBe(false);
    const state = JSON.parse(await readFile(`${onDisk.path}.state.json`, "utf8"));
    expect(state.revokedAt).toBe(revokedAt);
    await client.dispose();

    const restarted = server.client(onDisk, { fetch: offlineFetch });
    expect(await restarted.initialize()).toBe(false);
    expect(restarted.statusDetails).toMatchObject({
      status: "Revoked",
      reason: "revoked",
      heartbeating: false,
    });
    await restarted.dispose();
  });

  it("on activation: a machine that starts after the revocation is Revoked at once", async () => {
    const onDisk = await immediate();
    await revoke(onDisk);
    const client = server.client(onDisk);
    expect(await client.initialize()).toBe(true);
    expect(client.statusDetails).toMatchObject({ status: "Revoked", reason: "revoked" });
    await client.dispose();
  });

  it("a refusal whose revocation is unsigned or signed by another key changes nothing", async () => {
    const onDisk = await immediate();
    const { privateKey } = generateKeyPairSync("ed25519");
    const forged = signRevocation(
      { keyId: onDisk.license.id, privateKey, certificate: null },
      { lid: onDisk.license.id, status: "Revoked", revokedAt: 1, iat: Math.floor(server.clock() / 1000) },
    );
    let answer: string | null = null;
    const attacker: typeof fetch = async (input, init) => {
      if (answer === null || !String(input).endsWith("/heartbeat")) return fetch(input, init);
      return new Response(answer, { status: 403, headers: { "content-type": "application/json" } });
    };
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { fetch: attacker, scheduler });
    await client.initialize();
    for (const revocation of [forged, "eyJ.not.signed", undefined]) {
      answer = JSON.stringify({ code: "license.revoked", message: "Revoked", status: 403, revocation });
      expect(await client.heartbeat()).toBe(false);
      expect(client.statusDetails).toMatchObject({
        status: "Active",
        heartbeating: true,
        lastError: { code: "license.revoked" },
      });
    }
    answer = null;
    expect(await client.heartbeat()).toBe(true);
    expect(client.statusDetails).toMatchObject({ status: "Active", lastError: null });
    await client.dispose();
  });
});

describe("what stays graceful (the spec's rule 5)", () => {
  it("a graceful license revoked stays Active until its marker runs out, then GracePeriod, then Expired", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk, { deactivateOnDispose: false });
    await client.initialize();
    const markerExpiresAt = client.statusDetails.markerExpiresAt!;
    await revoke(onDisk);
    expect(await client.heartbeat()).toBe(false);
    expect(client.statusDetails).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      lastError: { code: "license.not_active" },
    });
    server.app.clock.set(new Date(markerExpiresAt + SECOND));
    expect(client.status).toBe("GracePeriod");
    server.app.clock.set(new Date(markerExpiresAt + DAY + SECOND));
    expect(client.status).toBe("Expired");
    await client.dispose();
  });

  it("an immediate license suspended: not Revoked, and usable again once resumed", async () => {
    const onDisk = await immediate();
    const client = server.client(onDisk, { deactivateOnDispose: false });
    await client.initialize();
    await server.admin.api.licenses.suspend({ params: { id: onDisk.license.id } });
    expect(await client.heartbeat()).toBe(false);
    expect(client.statusDetails).toMatchObject({
      status: "Active",
      lastError: { code: "license.not_active" },
    });
    await server.admin.api.licenses.resume({ params: { id: onDisk.license.id } });
    expect(await client.heartbeat()).toBe(true);
    await client.dispose();
  });
});

describe("the revocation list, for machines that never go online", () => {
  it("makes a listed license Revoked, for good: the status survives an offline restart", async () => {
    const onDisk = await immediate();
    const online = server.client(onDisk);
    await online.initialize();
    await online.dispose();
    await revoke(onDisk);
    const list = await revocationList(onDisk);

    const offline = server.client(onDisk, { fetch: offlineFetch });
    expect(await offline.initialize()).toBe(true);
    expect(offline.status).toBe("Active");
    expect(await offline.applyRevocationList(list)).toBe(true);
    expect(offline.statusDetails).toMatchObject({ status: "Revoked", reason: "revoked" });
    await offline.dispose();

    const restarted = server.client(onDisk, { fetch: offlineFetch });
    expect(await restarted.initialize()).toBe(false);
    expect(restarted.status).toBe("Revoked");
    await restarted.dispose();
  });

  it("changes nothing for a license it does not name, or when it does not verify", async () => {
    const revoked = await immediate();
    await revoke(revoked);
    const list = await revocationList(revoked);
    const onDisk = await immediate();
    const client = server.client(onDisk, { fetch: offlineFetch });
    await client.initialize();
    expect(await client.applyRevocationList(list)).toBe(false);

    const notLoaded = server.client(revoked, { fetch: offlineFetch });
    await expect(notLoaded.applyRevocationList(list)).rejects.toThrow(/initialize/);

    const [h, p, s] = list.split(".") as [string, string, string];
    expect(await client.applyRevocationList(`${h}.${p}.${s.slice(0, -4)}AAAA`)).toBe(false);
    expect(await client.applyRevocationList("garbage")).toBe(false);
    expect(client.status).not.toBe("Revoked");
    await Promise.all([client.dispose(), notLoaded.dispose()]);
  });

  it("does not revoke a license issued graceful, whatever the list says", async () => {
    const graceful = await server.licenseOnDisk();
    const immediateOne = await immediate();
    await revoke(immediateOne);
    const list = await revocationList(immediateOne);
    const client = server.client(graceful, { fetch: offlineFetch });
    await client.initialize();
    expect(await client.applyRevocationList(list)).toBe(false);
    await client.dispose();
  });
});
