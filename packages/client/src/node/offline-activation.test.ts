import { access, readFile } from "node:fs/promises";
import { encodeQR } from "qr";
import decodeQR from "qr/decode.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OFFLINE_LABELS, armor, unarmor } from "@licensing/protocol/offline";
import {
  manualScheduler,
  startSdkTestServer,
  watchTimer,
  type LicenseOnDisk,
  type SdkTestServer,
} from "../../testing/index.ts";
import { OfflineActivationError } from "../client/license-client-core.ts";
import { cachePaths } from "./file-storage.ts";
import type { LicenseClient } from "./license-client.ts";

const DAY = 24 * 60 * 60 * 1000;

let server: SdkTestServer;
beforeAll(async () => {
  server = await startSdkTestServer();
});
afterAll(() => server.close());

/** A fetch that counts its calls: an air-gapped machine must make none. */
function countingFetch() {
  const calls: string[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    calls.push(String(input));
    return globalThis.fetch(input, init);
  };
  return { calls, fetch };
}

/** The panel's answer to a request, by the licensed company's Admin. */
async function panelAnswer(onDisk: LicenseOnDisk, request: string, validDays?: number) {
  const res = await server.admin.api.activations.offlineActivate({
    params: { id: onDisk.license.id },
    body: validDays === undefined ? { request } : { request, validDays },
  });
  if (res.status !== 201) throw new Error(`offline activation failed: ${res.status} ${res.text}`);
  return res.body;
}

const activationsOf = async (onDisk: LicenseOnDisk) =>
  (await server.admin.api.activations.list({ params: { id: onDisk.license.id } })).body;

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof OfflineActivationError ? error.reason : error),
  );

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("air-gapped activation, against the real server", () => {
  it("refuses a response made for another machine, another request, or changed, with a reason", async () => {
    const onDisk = await server.licenseOnDisk();
    const a = server.client(onDisk, { hwFingerprint: "machine-a" });
    const b = server.client(onDisk, { hwFingerprint: "machine-b" });
    const forA = await panelAnswer(onDisk, await a.createOfflineActivationRequest());
    await b.createOfflineActivationRequest();
    expect(await refusal(b.applyOfflineActivation(forA.response))).toBe("other-machine");

    // A newer request on A: the older one's answer no longer applies.
    await a.createOfflineActivationRequest();
    expect(await refusal(a.applyOfflineActivation(forA.response))).toBe("other-request");

    const body = unarmor(OFFLINE_LABELS.response, forA.response)!;
    const at = body.length - 10;
    const changed = armor(
      OFFLINE_LABELS.response,
      body.slice(0, at) + (body[at] === "A" ? "B" : "A") + body.slice(at + 1),
    );
    expect(await refusal(a.applyOfflineActivation(changed))).toBe("signature-invalid");
    expect(await refusal(a.applyOfflineActivation(await a.createOfflineActivationRequest()))).toBe(
      "malformed",
    );

    const other = await server.otherProductLicenseOnDisk();
    const c = server.client(other, { hwFingerprint: "machine-a" });
    await c.createOfflineActivationRequest();
    // Another product's program trusts another key.
    expect(await refusal(c.applyOfflineActivation(forA.response))).toBe("signature-invalid");
    expect(a.status).not.toBe("Active");
    await Promise.all([a.dispose(), b.dispose(), c.dispose()]);
  });

  it("request → panel → apply: Active with no network call until the agreed date, then Expired; the receipt frees the seat", async () => {
    const onDisk = await server.licenseOnDisk({
      config: JSON.stringify({ features: [], limits: { maxSeats: 1 } }),
    });
    const network = countingFetch();
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { fetch: network.fetch, scheduler });

    const request = await client.createOfflineActivationRequest();
    expect(request.startsWith("-----BEGIN LICENSE ACTIVATION REQUEST-----\n")).toBe(true);
    expect(request.endsWith("-----END LICENSE ACTIVATION REQUEST-----\n")).toBe(true);
    expect(request.length).toBeLessThanOrEqual(1200);
    expect(client.pendingOfflineRequest).toBe(request);

    const appliedAt = server.clock();
    const { activationId, response } = await panelAnswer(onDisk, request, 30);
    const applied = await client.applyOfflineActivation(response);
    expect(applied).toMatchObject({
      status: "Active",
      reason: "offline-activated",
      activationId,
      certificateExpiresAt: Math.floor(appliedAt / 1000) * 1000 + 30 * DAY,
    });
    expect(await client.initialize()).toBe(true);
    expect(client.status).toBe("Active");
    expect(client.statusDetails.heartbeating).toBe(false);
    expect(await activationsOf(onDisk)).toEqual([
      expect.objectContaining({ id: activationId, mode: "offline" }),
    ]);

    // A month offline, restarts included: still no call.
    server.app.clock.advance(29 * DAY);
    scheduler.fire(watchTimer);
    expect(client.status).toBe("Active");
    const restarted = server.client(onDisk, { fetch: network.fetch, scheduler: manualScheduler() });
    expect(await restarted.initialize()).toBe(true);
    expect(restarted.statusDetails).toMatchObject({ status: "Active", activationId });
    await restarted.dispose();

    // The agreed date, to the second: Expired, with no grace period.
    const end = client.statusDetails.certificateExpiresAt!;
    server.app.clock.set(new Date(end - 1000));
    expect(client.refreshStatus().status).toBe("Active");
    server.app.clock.set(new Date(end));
    expect(client.refreshStatus()).toMatchObject({ status: "Expired", reason: "offline-expired" });
    server.app.clock.advance(DAY);
    expect(client.status).toBe("Expired");

    const receipt = await client.deactivateOffline();
    expect(receipt.startsWith("-----BEGIN LICENSE DEACTIVATION-----\n")).toBe(true);
    expect(await exists(cachePaths(onDisk.path).marker)).toBe(false);
    expect(client.statusDetails).toMatchObject({ status: "Expired", activationId: null });
    await client.dispose();
    expect(network.calls).toEqual([]);

    const freed = await server.admin.api.activations.offlineDeactivate({ body: { receipt } });
    expect(freed.body).toEqual({ licenseId: onDisk.license.id, activationId });
    expect(await activationsOf(onDisk)).toEqual([expect.objectContaining({ status: "deactivated" })]);
  });

  it("applies before initialize too, and initialize then makes no call", async () => {
    const onDisk = await server.licenseOnDisk();
    const network = countingFetch();
    const machine = server.client(onDisk, { fetch: network.fetch });
    const { response } = await panelAnswer(onDisk, await machine.createOfflineActivationRequest());
    await machine.applyOfflineActivation(response);
    expect(await machine.initialize()).toBe(true);
    expect(machine.status).toBe("Active");
    await expect(machine.listMachines()).rejects.toThrow(/activated offline/);
    expect(await machine.deactivate()).toBe(false);
    await machine.dispose();
    expect(network.calls).toEqual([]);
  });

  it("stops a running client's attempts to reach the server once applied", async () => {
    const onDisk = await server.licenseOnDisk();
    const network = countingFetch();
    const scheduler = manualScheduler();
    const client = server.client(onDisk, {
      fetch: async (input, init) => {
        await network.fetch(input, init).catch(() => undefined);
        throw new TypeError("fetch failed");
      },
      scheduler,
    });
    expect(await client.initialize()).toBe(true);
    expect(client.statusDetails.heartbeating).toBe(true);
    const called = network.calls.length;
    const { response } = await panelAnswer(onDisk, await client.createOfflineActivationRequest());
    await client.applyOfflineActivation(response);
    expect(client.statusDetails).toMatchObject({ status: "Active", heartbeating: false });
    expect(() => scheduler.fire((_, kind) => kind === "network")).toThrow(/No such timer/);
    expect(network.calls.length).toBe(called);
    await client.dispose();
  });

  it("refuses a response whose activation has already ended, and keeps the clock-rollback defence", async () => {
    const onDisk = await server.licenseOnDisk();
    let now = server.clock();
    const client = server.client(onDisk, { clock: () => now });
    const { response } = await panelAnswer(onDisk, await client.createOfflineActivationRequest(), 2);
    now += 3 * DAY;
    expect(await refusal(client.applyOfflineActivation(response))).toBe("expired");
    now -= 3 * DAY;
    expect((await client.applyOfflineActivation(response)).status).toBe("Active");
    now += 2 * DAY + 1000;
    expect(client.refreshStatus().status).toBe("Expired");
    // Setting the clock back gains nothing.
    now -= 5 * DAY;
    expect(client.refreshStatus()).toMatchObject({ status: "Expired", reason: "offline-expired" });
    await client.dispose();
  });

  it("ends at the token's expiry when that comes first", async () => {
    const expiresAt = new Date(server.clock() + 10 * DAY).toISOString();
    const onDisk = await server.licenseOnDisk({ expiresAt });
    const client = server.client(onDisk);
    const { response } = await panelAnswer(onDisk, await client.createOfflineActivationRequest(), 365);
    const details = await client.applyOfflineActivation(response);
    expect(details.certificateExpiresAt).toBe(Date.parse(expiresAt));
    expect(details).toMatchObject({ nextTransitionAt: Date.parse(expiresAt), nextStatus: "Expired" });
    await client.dispose();
  });

  it("keeps the pending request beside the license file across a restart", async () => {
    const onDisk = await server.licenseOnDisk();
    const first = server.client(onDisk);
    const request = await first.createOfflineActivationRequest();
    const state = JSON.parse(await readFile(cachePaths(onDisk.path).state, "utf8")) as {
      pendingOffline: { request: string };
    };
    expect(state.pendingOffline.request).toBe(request);
    const { response } = await panelAnswer(onDisk, request);
    const second = server.client(onDisk);
    expect((await second.applyOfflineActivation(response)).status).toBe("Active");
    expect(second.pendingOfflineRequest).toBe(request);
    await Promise.all([first.dispose(), second.dispose()]);
  });
});

describe("offlineActivationRequestQrSvg", () => {
  it("renders the pending request as a QR code that reads back to it", async () => {
    const onDisk = await server.licenseOnDisk();
    const client: LicenseClient = server.client(onDisk);
    const svg = await client.offlineActivationRequestQrSvg();
    const request = client.pendingOfflineRequest!;
    expect(svg).toMatch(
      /^<svg [^>]*viewBox="0 0 (\d+) \1"[^>]*><rect width="100%" height="100%" fill="#fff"\/>/,
    );
    // The same symbol, as a bitmap, decodes to the request.
    const modules = encodeQR(request, "raw", { ecc: "low", border: 4 });
    const scale = 4;
    const size = modules.length * scale;
    const data = new Uint8Array(size * size * 4).fill(255);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (modules[Math.floor(y / scale)]![Math.floor(x / scale)])
          data.fill(0, (y * size + x) * 4, (y * size + x) * 4 + 3);
      }
    }
    expect(decodeQR({ width: size, height: size, data })).toBe(request);
    expect(svg).toContain(`viewBox="0 0 ${modules.length} ${modules.length}"`);
    // Asked again, it shows the same request rather than a new one.
    expect(await client.offlineActivationRequestQrSvg()).toBe(svg);
    await client.dispose();
  });
});
