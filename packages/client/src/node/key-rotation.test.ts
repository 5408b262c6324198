import { generateKeyPairSync } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLicensedCompany, issueLicense } from "@licensing/api/testing";
import { signCertificate, signMarker } from "@licensing/core";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkMarker } from "../license/marker-check.ts";
import { addCertificate, trustedKeys } from "../crypto/key-chain.ts";
import {
  offlineFetch,
  startSdkTestServer,
  type LicenseOnDisk,
  type SdkTestServer,
} from "../../testing/index.ts";

/**
 * Issue 24 §3 against the real server: a program built with the template's original key keeps working
 * after the key is rotated once and twice, and a retired key signs nothing it would trust afterwards.
 */
const SECOND = 1000;
const DAY = 86_400 * SECOND;
let server: SdkTestServer;
beforeAll(async () => {
  server = await startSdkTestServer();
});
afterAll(() => server.close());

/** A template of its own (its keys rotate), and the public key its programs are built with. */
async function product() {
  const target = await createLicensedCompany(server.operator);
  const keys = await server.operator.api.templates.signingKeys.list({ params: { id: target.templateId } });
  return { target, root: keys.body[0]!.publicKeyHex };
}
const rotate = async (templateId: string) =>
  (await server.operator.api.templates.signingKeys.rotate({ params: { id: templateId } })).body;
const retire = (templateId: string, keyId: string) =>
  server.operator.api.templates.signingKeys.retire({ params: { id: templateId, keyId } });

async function onDisk(
  target: { companyId: string; templateId: string },
  terms: Parameters<typeof issueLicense>[2] = {},
): Promise<LicenseOnDisk> {
  const license = await issueLicense(server.operator, target, { offlineDays: 7, ...terms });
  const dir = await server.scratchDir();
  const path = join(dir, `${license.licenseKey}.lic`);
  const file = await server.operator.api.licenses.file({ params: { id: license.id } });
  await writeFile(path, file.text);
  return { license, path, dir };
}
const markerKid = async (path: string) =>
  JSON.parse(Buffer.from((await readFile(`${path}.hb`, "utf8")).split(".")[0]!, "base64url").toString()).kid;

describe("a program built with the template's original key", () => {
  it("verifies a license and its markers signed after one rotation, online and after an offline restart", async () => {
    const { target, root } = await product();
    const second = await rotate(target.templateId);
    const disk = await onDisk(target);
    expect(disk.license.publicKey).toBe(second.publicKeyHex);
    const client = server.client(disk, { publicKey: root });
    expect(await client.initialize()).toBe(true);
    expect(client.statusDetails).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      markerProblem: null,
    });
    expect(await markerKid(disk.path)).toBe(second.id);
    server.app.clock.advance(DAY);
    expect(await client.heartbeat()).toBe(true);
    await client.dispose();

    const offline = server.client(disk, { publicKey: root, fetch: offlineFetch });
    expect(await offline.initialize()).toBe(true);
    expect(offline.statusDetails).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      markerProblem: null,
    });
    await offline.dispose();
  });

  it("after two rotations, and with the key list the vendor ships (another key first)", async () => {
    const { target, root } = await product();
    await rotate(target.templateId);
    const third = await rotate(target.templateId);
    const disk = await onDisk(target);
    const other = generateKeyPairSync("ed25519").publicKey.export({ format: "jwk" }).x!;
    const publicKey = [Buffer.from(other, "base64url").toString("hex"), root];
    const client = server.client(disk, { publicKey, deactivateOnDispose: false });
    expect(await client.initialize()).toBe(true);
    expect(client.status).toBe("Active");
    expect(await markerKid(disk.path)).toBe(third.id);
    expect(await client.heartbeat()).toBe(true);
    await client.dispose();
  });

  it("refuses a license whose certificate another root signed (the file's, replaced)", async () => {
    const { target, root } = await product();
    await rotate(target.templateId);
    const disk = await onDisk(target);
    const file = JSON.parse(await readFile(disk.path, "utf8"));
    const certified = JSON.parse(Buffer.from(file.certificate.split(".")[1], "base64url").toString());
    const { privateKey } = generateKeyPairSync("ed25519");
    file.certificate = signCertificate({ keyId: certified.kid, privateKey }, certified);
    await writeFile(disk.path, JSON.stringify(file));
    const client = server.client(disk, { publicKey: root });
    expect(await client.initialize()).toBe(false);
    expect(client.statusDetails).toMatchObject({ status: "Invalid", reason: "signature-invalid" });

    // Another template's certificate of its own rotated key proves nothing here either.
    const elsewhere = await product();
    await rotate(elsewhere.target.templateId);
    file.certificate = JSON.parse(await readFile((await onDisk(elsewhere.target)).path, "utf8")).certificate;
    await writeFile(disk.path, JSON.stringify(file));
    const again = server.client(disk, { publicKey: root });
    expect(await again.initialize()).toBe(false);
    await Promise.all([client.dispose(), again.dispose()]);
  });
});

describe("retiring a key", () => {
  it("keeps its licenses working: their markers come from the Active key, and survive an offline restart", async () => {
    const { target, root } = await product();
    const second = await rotate(target.templateId);
    const disk = await onDisk(target);
    const client = server.client(disk, { publicKey: root, deactivateOnDispose: false });
    await client.initialize();
    const third = await rotate(target.templateId);
    expect((await retire(target.templateId, second.id)).status).toBe(204);
    server.app.clock.advance(DAY);
    expect(await client.heartbeat()).toBe(true);
    expect(client.statusDetails).toMatchObject({ status: "Active", markerProblem: null });
    expect(await markerKid(disk.path)).toBe(third.id);
    const state = JSON.parse(await readFile(`${disk.path}.state.json`, "utf8"));
    expect(state.certificates).toHaveLength(2);
    await client.dispose();

    const offline = server.client(disk, { publicKey: root, fetch: offlineFetch });
    expect(await offline.initialize()).toBe(true);
    expect(offline.statusDetails).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      markerProblem: null,
    });
    await offline.dispose();
  });

  it("refuses what the retired key signs afterwards, and keeps what it signed before until it expires", async () => {
    const { target, root } = await product();
    const second = await rotate(target.templateId);
    const disk = await onDisk(target);
    const client = server.client(disk, { publicKey: root, deactivateOnDispose: false });
    await client.initialize();
    const before = await readFile(`${disk.path}.hb`, "utf8");
    await rotate(target.templateId);
    server.app.clock.advance(DAY);
    await retire(target.templateId, second.id);
    await client.heartbeat();
    await client.dispose();
    server.app.clock.advance(60 * SECOND);

    // What a thief of the retired key could sign now, for this very machine.
    const [row] = await server.app.deps.db
      .select()
      .from(tables.signingKeys)
      .where(eq(tables.signingKeys.id, second.id));
    const stolen = server.app.deps.signingKeys.privateKey(second.id, row!.privateKeySealed);
    const now = Math.floor(server.clock() / 1000);
    const payload = JSON.parse(Buffer.from(before.split(".")[0]!, "base64url").toString());
    const forged = signMarker({ ...payload, iat: now, exp: now + 7 * 86_400, kid: second.id }, stolen);

    const state = JSON.parse(await readFile(`${disk.path}.state.json`, "utf8"));
    const keys = trustedKeys(root);
    for (const certificate of state.certificates) await addCertificate(keys, certificate);
    const owner = { licenseId: disk.license.id, activationId: payload.aid, fingerprint: payload.fp };
    expect(await checkMarker(forged, keys, owner)).toEqual({ ok: false, problem: "signature-invalid" });
    expect((await checkMarker(before, keys, owner)).ok).toBe(true);

    // Planted in the cache, the forgery is ignored; the license file (signed before) still verifies.
    await writeFile(`${disk.path}.hb`, forged);
    const offline = server.client(disk, { publicKey: root, fetch: offlineFetch });
    expect(await offline.initialize()).toBe(true);
    expect(offline.statusDetails).toMatchObject({ markerProblem: "signature-invalid", reason: "no-marker" });
    await offline.dispose();
  });
});

describe("the lease tokens of a floating license (decision 0048) go through the key chain", () => {
  const leaseKid = (token: string) =>
    JSON.parse(Buffer.from(token.split(".")[0]!, "base64url").toString()).kid as string | undefined;
  const stateOf = async (path: string) => JSON.parse(await readFile(`${path}.state.json`, "utf8"));

  it("signed by a rotated key (kid, certificate), and by the Active key once the license's key is retired", async () => {
    const { target, root } = await product();
    const second = await rotate(target.templateId);
    const disk = await onDisk(target, {
      seatModel: "floating",
      maxBorrowDays: 7,
      config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
    });
    const client = server.client(disk, { publicKey: root });
    expect(await client.initialize()).toBe(true);
    expect(client.statusDetails).toMatchObject({ status: "Active", reason: "lease-held" });
    // A borrow keeps the token in the state: it names the key that signed it.
    await client.borrow(server.clock() + DAY);
    expect(leaseKid((await stateOf(disk.path)).borrowedLease)).toBe(second.id);

    const third = await rotate(target.templateId);
    expect((await retire(target.templateId, second.id)).status).toBe(204);
    const seat = await client.returnBorrowed();
    expect(seat).toMatchObject({ state: "held" });
    await client.borrow(server.clock() + DAY);
    expect(leaseKid((await stateOf(disk.path)).borrowedLease)).toBe(third.id);
    await client.dispose();

    // Offline, the borrowed lease verifies through the certificates the state kept.
    const offline = server.client(disk, { publicKey: root, fetch: offlineFetch });
    expect(await offline.initialize()).toBe(true);
    expect(offline.statusDetails).toMatchObject({ status: "Active", reason: "lease-borrowed" });
    await offline.dispose();
  });
});
