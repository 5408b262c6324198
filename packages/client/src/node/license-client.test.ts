import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ClientStatus } from "../status/derive-status.ts";
import {
  manualScheduler,
  offlineFetch,
  startSdkTestServer,
  watchTimer,
  type SdkTestServer,
} from "../../testing/index.ts";
import { defaultFingerprint } from "./fingerprint.ts";

const SECOND = 1000;
const DAY = 86_400 * SECOND;
const config = JSON.stringify({
  features: ["export"],
  limits: { maxSeats: 2, "project.size": 10 },
  tier: "pro",
});

let server: SdkTestServer;
beforeAll(async () => {
  server = await startSdkTestServer();
});
afterAll(() => server.close());

const activationsOf = async (licenseId: string) =>
  (await server.admin.api.activations.list({ params: { id: licenseId } })).body;

describe("LicenseClient against the real server", () => {
  it("issue, download, initialize: Active with the server's marker cached, features and config", async () => {
    const onDisk = await server.licenseOnDisk({ config });
    const client = server.client(onDisk, { deactivateOnDispose: false });
    const changes: Array<[ClientStatus, ClientStatus]> = [];
    client.onStatusChange((status, previous) => changes.push([status, previous]));
    expect(client.status).toBe("Invalid");
    expect(client.statusDetails.reason).toBe("not-initialized");

    expect(await client.initialize()).toBe(true);
    const details = client.statusDetails;
    expect(details).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      lastError: null,
      heartbeating: true,
    });
    expect(details.markerExpiresAt).toBe(Math.floor(server.clock() / 1000) * 1000 + 7 * DAY);
    expect(changes).toEqual([["Active", "Invalid"]]);
    const [activation] = await activationsOf(onDisk.license.id);
    expect(activation).toMatchObject({
      id: details.activationId,
      hwFingerprint: "machine-a",
      machineName: "Test machine",
    });
    expect(client.hasFeature("export")).toBe(true);
    expect(client.hasFeature("sync")).toBe(false);
    expect(client.getConfig("limits.maxSeats")).toBe(2);
    expect(client.getConfig("limits.project.size")).toBe(10);
    expect(client.getConfig<string>("tier")).toBe("pro");
    expect(client.getConfig("limits.missing")).toBeNull();
    expect(client.license).toMatchObject({
      licenseKey: onDisk.license.licenseKey,
      licenseId: onDisk.license.id,
      version: 1,
      fingerprintMatch: "fuzzy",
    });

    const marker = await readFile(`${onDisk.path}.hb`, "utf8");
    expect(marker.split(".")).toHaveLength(2);
    const state = JSON.parse(await readFile(`${onDisk.path}.state.json`, "utf8"));
    expect(state).toMatchObject({
      version: 1,
      licenseId: onDisk.license.id,
      activationId: details.activationId,
    });
    await client.dispose();
  });

  it("heartbeat: a fresh marker moves the offline window, and the server records it", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk);
    await client.initialize();
    const first = client.statusDetails.markerExpiresAt!;
    server.app.clock.advance(DAY);
    expect(await client.heartbeat()).toBe(true);
    expect(client.statusDetails.markerExpiresAt).toBe(first + DAY);
    const heartbeats = await server.admin.api.activations.heartbeats({ params: { id: onDisk.license.id } });
    expect(heartbeats.body).toHaveLength(1);
    await client.dispose();
  });

  it("restart offline: the cached marker keeps it Active until its exp, then 24 h of grace, then Expired", async () => {
    const onDisk = await server.licenseOnDisk();
    const online = server.client(onDisk);
    await online.initialize();
    const markerExpiresAt = online.statusDetails.markerExpiresAt!;
    await online.dispose();

    const scheduler = manualScheduler();
    const offline = server.client(onDisk, { fetch: offlineFetch, scheduler });
    const seen: ClientStatus[] = [];
    offline.onStatusChange((status) => seen.push(status));
    expect(await offline.initialize()).toBe(true);
    expect(offline.statusDetails).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      lastError: { code: "network.error" },
    });
    server.app.clock.set(new Date(markerExpiresAt - SECOND));
    expect(offline.status).toBe("Active");
    server.app.clock.set(new Date(markerExpiresAt + SECOND));
    scheduler.fire(watchTimer);
    expect(offline.statusDetails).toMatchObject({
      status: "GracePeriod",
      reason: "marker-expired",
      nextTransitionAt: markerExpiresAt + DAY,
    });
    server.app.clock.set(new Date(markerExpiresAt + DAY + SECOND));
    scheduler.fire(watchTimer);
    expect(offline.statusDetails).toMatchObject({ status: "Expired", reason: "grace-ended" });
    expect(seen).toEqual(["Active", "GracePeriod", "Expired"]);
    await offline.dispose();
  });

  // Timers are faked, so what ends the wait is shown without a stopwatch: with the request unanswered,
  // initialize is still waiting 1 ms before activationTimeoutMs, and done at it (the request's own
  // 60 s timeout has not fired).
  it("starting offline never waits longer than activationTimeoutMs, and with no marker the status is Expired", async () => {
    const onDisk = await server.licenseOnDisk();
    let requested!: () => void;
    const requestSent = new Promise<void>((resolve) => (requested = resolve));
    const hanging: typeof fetch = () => {
      requested();
      return new Promise(() => {});
    };
    const client = server.client(onDisk, {
      fetch: hanging,
      activationTimeoutMs: 150,
      requestTimeoutMs: 60_000,
    });
    let done = false;
    let initialized!: Promise<boolean>;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      initialized = client.initialize().finally(() => (done = true));
      // The activation's request goes out in the same step that starts the activationTimeoutMs wait.
      await requestSent;
      await vi.advanceTimersByTimeAsync(149);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
    } finally {
      vi.useRealTimers();
    }
    // It ends once the files it queued are written (real I/O): the wait only bounds a hang.
    await vi.waitFor(() => expect(done).toBe(true), { timeout: 20_000 });
    expect(await initialized).toBe(true);
    expect(client.statusDetails).toMatchObject({
      status: "Expired",
      reason: "no-marker",
      markerProblem: null,
    });
    await client.dispose();
  });

  it("revocation is learned indirectly: heartbeats stop, and the status degrades as the offline window ends", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk);
    await client.initialize();
    const { markerExpiresAt } = client.statusDetails;
    await server.admin.api.licenses.revoke({
      params: { id: onDisk.license.id },
      body: { reason: "chargeback" },
    });
    server.app.clock.advance(60 * SECOND);
    expect(await client.heartbeat()).toBe(false);
    expect(client.statusDetails).toMatchObject({
      status: "Active",
      heartbeating: false,
      lastError: { code: "license.not_active", status: 400 },
    });
    await client.dispose();

    const restarted = server.client(onDisk);
    expect(await restarted.initialize()).toBe(true);
    expect(restarted.statusDetails).toMatchObject({
      status: "Active",
      lastError: { code: "license.not_active" },
    });
    server.app.clock.set(new Date(markerExpiresAt! + SECOND));
    expect(restarted.status).toBe("GracePeriod");
    server.app.clock.set(new Date(markerExpiresAt! + DAY));
    expect(restarted.status).toBe("Expired");
    await restarted.dispose();
  });

  it("rebind: the old machine loses its activation; the new license file activates the new machine", async () => {
    const onDisk = await server.licenseOnDisk({ hwFingerprint: "machine-a" });
    const oldMachine = server.client(onDisk);
    await oldMachine.initialize();
    const rebound = await server.admin.api.licenses.rebind({
      params: { id: onDisk.license.id },
      body: { hwFingerprint: "machine-b", reason: "new laptop" },
    });
    expect(rebound.status).toBe(200);
    // The server no longer knows the activation; activating again is refused: the license is another
    // machine's now.
    expect(await oldMachine.heartbeat()).toBe(false);
    expect(oldMachine.statusDetails).toMatchObject({
      heartbeating: false,
      lastError: { code: "activation.fingerprint_mismatch" },
    });
    await oldMachine.dispose();
    const refused = server.client(onDisk);
    await refused.initialize();
    expect(refused.statusDetails.lastError?.code).toBe("activation.fingerprint_mismatch");
    await refused.dispose();

    const newFile = join(onDisk.dir, "new-machine.lic");
    await server.download(onDisk.license.id, newFile);
    const newMachine = server.client({ ...onDisk, path: newFile }, { hwFingerprint: "machine-b" });
    expect(await newMachine.initialize()).toBe(true);
    expect(newMachine.statusDetails).toMatchObject({ status: "Active", lastError: null });
    expect(newMachine.license?.version).toBe(2);
    const live = (await activationsOf(onDisk.license.id)).filter((a) => a.status === "active");
    expect(live.map((a) => a.hwFingerprint)).toEqual(["machine-b"]);
    await newMachine.dispose();
  });

  it("dispose deactivates this machine (once), and so does Symbol.asyncDispose", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk);
    await client.initialize();
    const { activationId } = client.statusDetails;
    await Promise.all([client.dispose(), client.dispose()]);
    const [activation] = await activationsOf(onDisk.license.id);
    expect(activation).toMatchObject({ id: activationId, status: "deactivated" });

    const again = server.client(onDisk);
    await again.initialize();
    await again[Symbol.asyncDispose]();
    expect((await activationsOf(onDisk.license.id)).every((a) => a.status === "deactivated")).toBe(true);
  });

  it("deactivate() releases the seat now and forgets the marker", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk);
    await client.initialize();
    expect(await client.deactivate()).toBe(true);
    expect(client.statusDetails).toMatchObject({
      status: "Expired",
      reason: "no-marker",
      activationId: null,
    });
    await expect(readFile(`${onDisk.path}.hb`)).rejects.toThrow(/ENOENT/);
    await client.dispose();
  });

  it("initialize is false for a missing file, a bad signature and an expired token", async () => {
    const onDisk = await server.licenseOnDisk({
      expiresAt: new Date(server.clock() + 2 * DAY).toISOString(),
    });
    const missing = server.client({ ...onDisk, path: join(onDisk.dir, "absent.lic") });
    expect(await missing.initialize()).toBe(false);
    expect(missing.statusDetails).toMatchObject({ status: "Invalid", reason: "license-file-missing" });

    const foreignKey = "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c";
    const wrongKey = server.client(onDisk, { publicKey: foreignKey });
    expect(await wrongKey.initialize()).toBe(false);
    expect(wrongKey.statusDetails).toMatchObject({ status: "Invalid", reason: "signature-invalid" });

    const garbled = join(onDisk.dir, "garbled.lic");
    await writeFile(garbled, "this is not a license");
    const unreadable = server.client({ ...onDisk, path: garbled });
    expect(await unreadable.initialize()).toBe(false);
    expect(unreadable.status).toBe("Invalid");

    server.app.clock.advance(2 * DAY);
    const expired = server.client(onDisk);
    expect(await expired.initialize()).toBe(false);
    expect(expired.statusDetails).toMatchObject({ status: "Expired", reason: "token-expired" });
    expect(await activationsOf(onDisk.license.id)).toEqual([]);
  });

  it("the token's hard expiry overrides a fresh marker, online too", async () => {
    const onDisk = await server.licenseOnDisk({
      expiresAt: new Date(server.clock() + 2 * DAY).toISOString(),
    });
    const client = server.client(onDisk);
    await client.initialize();
    expect(client.statusDetails).toMatchObject({ status: "Active", nextStatus: "Expired" });
    server.app.clock.advance(2 * DAY);
    expect(client.statusDetails).toMatchObject({ status: "Expired", reason: "token-expired" });
    await client.dispose();
  });

  it("the default fingerprint is what the server records: version 2 on a new install", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk, { hwFingerprint: undefined });
    await client.initialize();
    const [activation] = await activationsOf(onDisk.license.id);
    expect(activation!.hwFingerprint).toBe(await defaultFingerprint({ fingerprintVersion: 2 }));
    expect(activation!.hwFingerprint).toMatch(/^[0-9a-f]{64}$/);
    const state = JSON.parse(await readFile(`${onDisk.path}.state.json`, "utf8"));
    expect(state.fingerprintVersion).toBe(2);
    await client.dispose();
  });
});
