import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import componentVectors from "@licensing/protocol/vectors/components.json" with { type: "json" };
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashComponents } from "../client/components.ts";
import { serializeState } from "../client/state.ts";
import type { TimerKind } from "../client/scheduler.ts";
import { LicensingApiError } from "../http/server-api.ts";
import {
  manualScheduler,
  startSdkTestServer,
  type LicenseOnDisk,
  type SdkTestServer,
} from "../../testing/index.ts";
import { defaultComponents, defaultFingerprint } from "./fingerprint.ts";

/** Issue 22 §4: components, re-activation, machines managed from the app, refusals that say what happened. */
const SECOND = 1000;
const DAY = 86_400 * SECOND;
const seats = (maxSeats: number) => ({
  config: JSON.stringify({ features: [], limits: { maxSeats } }),
});
const network = (_delayMs: number, kind: TimerKind) => kind === "network";

let server: SdkTestServer;
beforeAll(async () => {
  server = await startSdkTestServer();
});
afterAll(() => server.close());

const liveActivations = async (licenseId: string) =>
  (await server.admin.api.activations.list({ params: { id: licenseId } })).body.filter(
    (a) => a.status === "active",
  );

/** The same license file on another machine: its own copy, so its own cache beside it. */
async function elsewhere(onDisk: LicenseOnDisk, machine: string): Promise<LicenseOnDisk> {
  const path = join(onDisk.dir, `${machine}.lic`);
  await copyFile(onDisk.path, path);
  return { ...onDisk, path };
}

/** A fetch that forwards to the server and keeps what the client sent to the client API. */
function recordingFetch() {
  const sent: Array<{ path: string; body: Record<string, unknown> }> = [];
  const fetcher: typeof fetch = (input, init) => {
    sent.push({ path: new URL(String(input)).pathname, body: JSON.parse(String(init?.body ?? "null")) });
    return fetch(input, init);
  };
  return { sent, fetcher };
}

describe("components", () => {
  it("hashes each value salted with the license key, as the protocol's vectors say", async () => {
    const { components, skipped } = await hashComponents(
      componentVectors.licenseKey,
      Object.fromEntries(componentVectors.cases.slice(0, 7).map((c) => [c.kind, c.value])),
    );
    expect(components).toEqual(componentVectors.cases.slice(0, 7).map(({ kind, hash }) => ({ kind, hash })));
    expect(skipped).toEqual([]);
    const odd = await hashComponents(componentVectors.licenseKey, {
      "Bad Kind": "x",
      empty: "",
      absent: null,
      ...Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, `v${i}`])),
    });
    expect(odd.components).toHaveLength(16);
    expect(odd.skipped).toEqual(["Bad Kind", "k16"]);
  });

  it("the default client sends this machine's components with a version 2 fingerprint", async () => {
    const onDisk = await server.licenseOnDisk();
    const { sent, fetcher } = recordingFetch();
    const client = server.client(onDisk, { hwFingerprint: undefined, fetch: fetcher });
    await client.initialize();
    const activate = sent.find((r) => r.path === "/api/v1/client/activate")!;
    const expected = await hashComponents(onDisk.license.licenseKey, await defaultComponents());
    expect(expected.components.length).toBeGreaterThan(0);
    expect(activate.body).toMatchObject({
      hwFingerprint: await defaultFingerprint({ fingerprintVersion: 2 }),
      components: expected.components,
    });
    for (const c of activate.body.components as Array<{ kind: string; hash: string }>) {
      expect(c.kind).toMatch(/^[a-z0-9-]{1,32}$/);
      expect(c.hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect((activate.body.components as Array<{ kind: string }>).map((c) => c.kind)).not.toContain(
      "os-version",
    );
    await client.dispose();
  });

  it("a client given its own fingerprint sends no components unless given those too; a throwing reader sends none", async () => {
    const onDisk = await server.licenseOnDisk();
    const { sent, fetcher } = recordingFetch();
    const own = server.client(onDisk, { fetch: fetcher });
    await own.initialize();
    await own.dispose();
    const given = server.client(onDisk, {
      fetch: fetcher,
      components: { "machine-id": "m-1", "disk-id": null },
    });
    await given.initialize();
    await given.dispose();
    const failing = server.client(onDisk, {
      fetch: fetcher,
      components: async () => {
        throw new Error("no WMI here");
      },
    });
    expect(await failing.initialize()).toBe(true);
    expect(failing.status).toBe("Active");
    await failing.dispose();
    const activations = sent.filter((r) => r.path.endsWith("/activate")).map((r) => r.body.components);
    expect(activations).toEqual([
      undefined,
      (await hashComponents(onDisk.license.licenseKey, { "machine-id": "m-1" })).components,
      undefined,
    ]);
  });

  it("an install made before fingerprint version 2 keeps version 1, so it stays the same machine", async () => {
    const onDisk = await server.licenseOnDisk();
    // The state an earlier library wrote: no fingerprintVersion.
    await writeFile(
      `${onDisk.path}.state.json`,
      serializeState({ licenseId: onDisk.license.id, activationId: null, observed: null }),
    );
    expect(await readFile(`${onDisk.path}.state.json`, "utf8")).not.toContain("fingerprintVersion");
    const upgraded = server.client(onDisk, { hwFingerprint: undefined });
    await upgraded.initialize();
    const [activation] = await liveActivations(onDisk.license.id);
    expect(activation!.hwFingerprint).toBe(await defaultFingerprint({ fingerprintVersion: 1 }));
    await upgraded.dispose();
    const state = JSON.parse(await readFile(`${onDisk.path}.state.json`, "utf8"));
    expect(state.fingerprintVersion).toBe(1);

    const chosen = server.client(onDisk, { hwFingerprint: undefined, fingerprintVersion: 2 });
    await chosen.initialize();
    const [latest] = await liveActivations(onDisk.license.id);
    expect(latest!.hwFingerprint).toBe(await defaultFingerprint({ fingerprintVersion: 2 }));
    await chosen.dispose();
  });

  it("the server heals a machine whose fingerprint changed but whose components did not", async () => {
    const onDisk = await server.licenseOnDisk(seats(1));
    const components = { "machine-id": "id-1", "cpu-model": "cpu", "disk-id": "disk", "host-name": "box" };
    const before = server.client(onDisk, { components, deactivateOnDispose: false });
    await before.initialize();
    const { activationId } = before.statusDetails;
    await before.dispose();
    // An OS upgrade under fingerprint version 1: a new fingerprint, the same components.
    const after = server.client(onDisk, { hwFingerprint: "machine-a-upgraded", components });
    await after.initialize();
    expect(after.statusDetails).toMatchObject({ status: "Active", activationId, lastError: null });
    expect(after.license?.fingerprintMatch).toBe("fuzzy");
    expect((await liveActivations(onDisk.license.id)).map((a) => a.hwFingerprint)).toEqual([
      "machine-a-upgraded",
    ]);
    await after.dispose();
  });

  it("under exact matching nothing heals: the changed machine is a new one", async () => {
    const onDisk = await server.licenseOnDisk({ ...seats(1), fingerprintMatch: "exact" });
    const components = { "machine-id": "id-1", "cpu-model": "cpu", "disk-id": "disk", "host-name": "box" };
    const before = server.client(onDisk, { components, deactivateOnDispose: false });
    await before.initialize();
    expect(before.license?.fingerprintMatch).toBe("exact");
    await before.dispose();
    const after = server.client(await elsewhere(onDisk, "upgraded"), {
      hwFingerprint: "machine-a-upgraded",
      components,
    });
    await after.initialize();
    expect(after.statusDetails).toMatchObject({ status: "Expired", reason: "seat-limit" });
    await after.dispose();
  });
});

describe("serverUrl", () => {
  it.each(["", "/", "/api/v1", "/api/v1/", "/API/v1//"])("works with %j after the host", async (suffix) => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk, { serverUrl: `${server.app.url}${suffix}` });
    expect(await client.initialize()).toBe(true);
    expect(client.statusDetails).toMatchObject({ status: "Active", lastError: null });
    expect(await client.heartbeat()).toBe(true);
    await client.dispose();
  });
});

describe("re-activation", () => {
  it("a panel reset: the next heartbeat activates again at once and goes on, without a restart", async () => {
    const onDisk = await server.licenseOnDisk(seats(1));
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { scheduler });
    await client.initialize();
    const first = client.statusDetails.activationId!;
    const reset = await server.admin.api.activations.reset({
      params: { id: onDisk.license.id, activationId: first },
    });
    expect(reset.status).toBe(204);

    server.app.clock.advance(900 * SECOND);
    scheduler.fire(network);
    await expect.poll(() => client.statusDetails.reason).toBe("reactivated");
    const details = client.statusDetails;
    expect(details).toMatchObject({ status: "Active", heartbeating: true, lastError: null });
    expect(details.message).toMatch(/activated again/);
    expect(details.activationId).not.toBe(first);
    expect((await liveActivations(onDisk.license.id)).map((a) => a.id)).toEqual([details.activationId]);

    // The next heartbeat is an ordinary one.
    expect(await client.heartbeat()).toBe(true);
    expect(client.statusDetails.reason).toBe("marker-valid");
    await client.dispose();
  });

  it("deactivated from another machine: a manual heartbeat activates again", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk);
    await client.initialize();
    const other = server.client(await elsewhere(onDisk, "b"), { hwFingerprint: "machine-b" });
    await other.initialize();
    expect(await other.deactivateMachine(client.statusDetails.activationId!)).toBe(true);
    expect(await client.heartbeat()).toBe(true);
    expect(client.statusDetails).toMatchObject({ status: "Active", reason: "reactivated" });
    expect(await liveActivations(onDisk.license.id)).toHaveLength(2);
    await Promise.all([client.dispose(), other.dispose()]);
  });

  it("a revoked license is not activated again: heartbeats stop, the offline window runs out", async () => {
    const onDisk = await server.licenseOnDisk();
    const { sent, fetcher } = recordingFetch();
    const client = server.client(onDisk, { fetch: fetcher });
    await client.initialize();
    await server.admin.api.licenses.revoke({ params: { id: onDisk.license.id }, body: { reason: "refund" } });
    expect(await client.heartbeat()).toBe(false);
    expect(client.statusDetails).toMatchObject({
      status: "Active",
      heartbeating: false,
      lastError: { code: "license.not_active" },
    });
    expect(sent.filter((r) => r.path.endsWith("/activate"))).toHaveLength(1);
    await client.dispose();
  });
});

describe("refusals say what the server said", () => {
  it("every seat taken: Expired with reason seat-limit and the machines; freeing one from the app activates at once", async () => {
    const onDisk = await server.licenseOnDisk(seats(1));
    const first = server.client(onDisk, { machineName: "Office PC" });
    await first.initialize();
    const firstId = first.statusDetails.activationId!;

    const second = server.client(await elsewhere(onDisk, "b"), {
      hwFingerprint: "machine-b",
      machineName: "Laptop",
    });
    expect(await second.initialize()).toBe(true);
    const refused = second.statusDetails;
    expect(refused).toMatchObject({
      status: "Expired",
      reason: "seat-limit",
      activationId: null,
      lastError: { code: "activation.seat_limit_reached", status: 409 },
      machines: [
        {
          activationId: firstId,
          machineName: "Office PC",
          activatedAt: server.clock(),
          lastHeartbeatAt: null,
        },
      ],
    });
    expect(refused.message).not.toMatch(/no answer from the server/);
    expect(refused.message).toMatch(/seat/);
    expect(await second.listMachines()).toEqual(refused.machines);

    expect(await second.deactivateMachine(firstId)).toBe(true);
    expect(second.statusDetails).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      machines: null,
      lastError: null,
    });
    expect((await liveActivations(onDisk.license.id)).map((a) => a.id)).toEqual([
      second.statusDetails.activationId,
    ]);
    await Promise.all([first.dispose(), second.dispose()]);
  });

  it("every seat taken: the client asks again each interval on its own, and heartbeat() asks at once", async () => {
    const onDisk = await server.licenseOnDisk(seats(1));
    const first = server.client(onDisk);
    await first.initialize();
    const scheduler = manualScheduler();
    const { sent, fetcher } = recordingFetch();
    const second = server.client(await elsewhere(onDisk, "b"), {
      hwFingerprint: "machine-b",
      scheduler,
      fetch: fetcher,
    });
    await second.initialize();
    expect(second.statusDetails).toMatchObject({ reason: "seat-limit", heartbeating: true });
    const wait = scheduler.pending().at(-1)!;
    expect(wait).toBeGreaterThanOrEqual(0.9 * 900 * SECOND);

    // Still full when the timer fires: refused again, and asked again later.
    server.app.clock.advance(wait);
    scheduler.fire(network);
    await expect.poll(() => scheduler.pending().filter((d) => d >= 0.9 * 900 * SECOND)).toHaveLength(1);
    expect(sent.filter((r) => r.path.endsWith("/activate"))).toHaveLength(2);
    expect(second.statusDetails).toMatchObject({ reason: "seat-limit", heartbeating: true });

    await first.dispose();
    server.app.clock.advance(wait);
    scheduler.fire(network);
    await expect.poll(() => second.statusDetails.status).toBe("Active");

    const third = server.client(await elsewhere(onDisk, "c"), { hwFingerprint: "machine-c" });
    await third.initialize();
    expect(third.statusDetails.reason).toBe("seat-limit");
    await second.deactivate();
    expect(await third.heartbeat()).toBe(true);
    expect(third.statusDetails).toMatchObject({ status: "Active", reason: "marker-valid" });
    await Promise.all([second.dispose(), third.dispose()]);
  });

  it("a revoked license on a new machine: license-not-active", async () => {
    const onDisk = await server.licenseOnDisk();
    await server.admin.api.licenses.revoke({ params: { id: onDisk.license.id }, body: { reason: "refund" } });
    const client = server.client(onDisk);
    expect(await client.initialize()).toBe(true);
    expect(client.statusDetails).toMatchObject({
      status: "Expired",
      reason: "license-not-active",
      heartbeating: false,
      lastError: { code: "license.not_active" },
    });
    expect(client.statusDetails.message).toMatch(/not active/);
    await client.dispose();
  });

  it("a license bound to another machine: device-changed", async () => {
    const onDisk = await server.licenseOnDisk({ hwBinding: "fixed", hwFingerprint: "machine-a" });
    const client = server.client(onDisk, { hwFingerprint: "machine-z" });
    await client.initialize();
    expect(client.statusDetails).toMatchObject({
      status: "Expired",
      reason: "device-changed",
      heartbeating: false,
      lastError: { code: "activation.fingerprint_mismatch" },
    });
    await client.dispose();
  });

  it("offline, no-marker says the server could not be reached", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk, { serverUrl: "http://127.0.0.1:9" });
    await client.initialize();
    expect(client.statusDetails).toMatchObject({ status: "Expired", reason: "no-marker" });
    expect(client.statusDetails.message).toMatch(/could not be reached/);
    await client.dispose();
  });

  it("too many new devices: device-budget with retryAt, and the client activates on its own after it", async () => {
    const onDisk = await server.licenseOnDisk({ maxNewDevicesPerWindow: 1, newDeviceWindowDays: 30 });
    const first = server.client(onDisk);
    await first.initialize();
    const activatedAt = server.clock();
    await first.dispose();

    server.app.clock.advance(DAY);
    const scheduler = manualScheduler();
    const second = server.client(await elsewhere(onDisk, "b"), { hwFingerprint: "machine-b", scheduler });
    await second.initialize();
    const retryAt = activatedAt + 30 * DAY;
    expect(second.statusDetails).toMatchObject({
      status: "Expired",
      reason: "device-budget",
      retryAt,
      heartbeating: true,
      lastError: { code: "activation.device_budget_exhausted", status: 429 },
    });
    expect(second.statusDetails.message).toContain(new Date(retryAt).toISOString());
    const wait = scheduler.pending().at(-1)!;
    expect(server.clock() + wait).toBeGreaterThanOrEqual(retryAt);
    expect(second.statusDetails.nextHeartbeatAt).toBe(server.clock() + wait);

    server.app.clock.advance(wait);
    scheduler.fire(network);
    await expect.poll(() => second.statusDetails.status).toBe("Active");
    expect(second.statusDetails).toMatchObject({ reason: "marker-valid", retryAt: null, lastError: null });
    await second.dispose();
  });

  it("a spent device budget reset from the panel: heartbeat() activates at once", async () => {
    const onDisk = await server.licenseOnDisk({ maxNewDevicesPerWindow: 1 });
    const first = server.client(onDisk);
    await first.initialize();
    await first.dispose();
    const second = server.client(await elsewhere(onDisk, "b"), { hwFingerprint: "machine-b" });
    await second.initialize();
    expect(second.statusDetails.reason).toBe("device-budget");
    const reset = await server.admin.post(`/api/v1/panel/licenses/${onDisk.license.id}/device-budget/reset`);
    expect(reset.status).toBe(204);
    expect(await second.heartbeat()).toBe(true);
    expect(second.statusDetails).toMatchObject({ status: "Active", reason: "marker-valid", retryAt: null });
    await second.dispose();
  });
});

describe("machines managed from the app", () => {
  it("listMachines lists the live activations; deactivateMachine frees another's seat", async () => {
    const onDisk = await server.licenseOnDisk(seats(3));
    const a = server.client(onDisk, { machineName: "A" });
    const b = server.client(await elsewhere(onDisk, "b"), { hwFingerprint: "machine-b", machineName: null });
    await a.initialize();
    server.app.clock.advance(60 * SECOND);
    await b.initialize();
    server.app.clock.advance(60 * SECOND);
    await a.heartbeat();
    const machines = await b.listMachines();
    expect(machines).toEqual([
      {
        activationId: a.statusDetails.activationId,
        machineName: "A",
        activatedAt: server.clock() - 120 * SECOND,
        lastHeartbeatAt: server.clock(),
      },
      {
        activationId: b.statusDetails.activationId,
        machineName: null,
        activatedAt: server.clock() - 60 * SECOND,
        lastHeartbeatAt: null,
      },
    ]);
    expect(JSON.stringify(machines)).not.toMatch(/machine-b|fingerprint|components/);

    expect(await b.deactivateMachine(a.statusDetails.activationId!)).toBe(true);
    expect((await a.listMachines()).map((m) => m.activationId)).toEqual([b.statusDetails.activationId]);
    // b held its activation: nothing to activate.
    expect(b.statusDetails).toMatchObject({ status: "Active", reason: "marker-valid" });
    await Promise.all([a.dispose(), b.dispose()]);
  });

  it("listMachines rejects with the server's code, or before initialize", async () => {
    const onDisk = await server.licenseOnDisk();
    const client = server.client(onDisk, { serverUrl: "http://127.0.0.1:9" });
    await expect(client.listMachines()).rejects.toThrow(/initialize/);
    await client.initialize();
    const error = await client.listMachines().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LicensingApiError);
    expect(error).toMatchObject({ code: "network.error", status: null, retryable: true });
    await client.dispose();
  });
});
