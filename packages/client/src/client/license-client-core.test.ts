import markerVector from "@licensing/protocol/vectors/marker.json" with { type: "json" };
import tokenVector from "@licensing/protocol/vectors/token.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { manualScheduler, watchTimer } from "../../testing/manual-scheduler.ts";
import { LicenseClientCore } from "./license-client-core.ts";
import { serializeState } from "./state.ts";
import { memoryStorage, type MemoryStorage } from "./storage.ts";

/** The core client alone, as a renderer runs it: the golden vectors in memory storage, no server. */
const HOUR = 3_600_000;
const unreachable: typeof fetch = async () => {
  throw new TypeError("fetch failed");
};

function offlineClient(now: { at: number }) {
  const scheduler = manualScheduler();
  const storage = memoryStorage({
    license: JSON.stringify({ licenseKey: tokenVector.claims.lk, token: tokenVector.token }),
    marker: markerVector.marker,
    state: serializeState({
      licenseId: markerVector.payload.lid,
      activationId: markerVector.payload.aid,
      observed: null,
    }),
  });
  const client = new LicenseClientCore({
    serverUrl: "http://127.0.0.1:9",
    publicKey: tokenVector.publicKeyHex,
    storage,
    hwFingerprint: markerVector.payload.fp,
    fetch: unreachable,
    clock: () => now.at,
    scheduler,
  });
  return { client, storage, scheduler };
}

/** Records every call to the storage from now on. */
function recordCalls(storage: MemoryStorage): string[] {
  const calls: string[] = [];
  for (const method of ["readLicense", "readMarker", "writeMarker", "readState", "writeState"] as const) {
    const original = storage[method] as (...args: unknown[]) => Promise<unknown>;
    (storage as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls.push(method);
      return original(...args);
    };
  }
  return calls;
}

/** Lets the writes the client queued (promises) run. */
const queuedWrites = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("LicenseClientCore over memory storage", () => {
  it("reads the status without I/O; refreshStatus observes the clock, writes the state and tells listeners", async () => {
    const now = { at: markerVector.payload.iat * 1000 + HOUR };
    const { client, storage } = offlineClient(now);
    await client.initialize();
    const calls = recordCalls(storage);
    const heard: string[] = [];
    client.onStatusChange((status, previous) => heard.push(`${previous}->${status}`));

    // Past the marker's exp, and long after the state was last written.
    now.at = markerVector.payload.exp * 1000 + 5 * 60_000;
    expect(client.status).toBe("GracePeriod");
    expect(client.status).toBe("GracePeriod");
    expect(client.statusDetails).toMatchObject({ status: "GracePeriod", at: now.at });
    expect(client.isUsable).toBe(true);
    await queuedWrites();
    expect(calls).toEqual([]);
    expect(heard).toEqual([]);
    expect(JSON.parse(storage.state!).observedAt).toBe(markerVector.payload.iat * 1000 + HOUR);

    expect(client.refreshStatus()).toMatchObject({ status: "GracePeriod", at: now.at });
    await queuedWrites();
    expect(calls).toEqual(["writeState"]);
    expect(heard).toEqual(["Active->GracePeriod"]);
    expect(JSON.parse(storage.state!).observedAt).toBe(now.at);
    await client.dispose();
  });

  it("runs offline from the cached marker, and tells every listener even when one throws", async () => {
    const now = { at: markerVector.payload.iat * 1000 + HOUR };
    const { client, scheduler } = offlineClient(now);
    const heard: string[] = [];
    client.onStatusChange(() => {
      throw new Error("a careless listener");
    });
    const unsubscribe = client.onStatusChange((status, previous) => heard.push(`${previous}->${status}`));
    expect(await client.initialize()).toBe(true);
    expect(client.statusDetails).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      activationId: markerVector.payload.aid,
    });
    now.at = markerVector.payload.exp * 1000;
    scheduler.fire(watchTimer);
    expect(client.status).toBe("GracePeriod");
    unsubscribe();
    now.at += 24 * HOUR;
    expect(client.status).toBe("Expired");
    expect(heard).toEqual(["Invalid->Active", "Active->GracePeriod"]);
    await client.dispose();
  });

  it("writes nothing once disposed, so a restarted client owns the files", async () => {
    const now = { at: markerVector.payload.iat * 1000 + HOUR };
    const { client, storage } = offlineClient(now);
    await client.initialize();
    await client.dispose();
    const state = JSON.parse(storage.state!);
    expect(state).toMatchObject({ activationId: markerVector.payload.aid, observedAt: now.at });
    storage.state = "owned by the next client";
    now.at += 10 * 60_000;
    expect(client.status).toBe("Active");
    await queuedWrites();
    expect(storage.state).toBe("owned by the next client");
  });

  it.each([
    ["a new install", {}, 2],
    ["an install whose state predates version 2", { state: true }, 1],
    ["an install with a cached marker and no state", { marker: true }, 1],
    ["an install whose state says version 2", { state: true, version: 2 }, 2],
  ] as const)("uses fingerprint version %s: %j gives %i", async (_name, cache, version) => {
    const storage = memoryStorage({
      license: JSON.stringify({ licenseKey: tokenVector.claims.lk, token: tokenVector.token }),
      marker: "marker" in cache ? markerVector.marker : null,
      state:
        "state" in cache
          ? serializeState({
              licenseId: markerVector.payload.lid,
              activationId: null,
              observed: null,
              ...("version" in cache ? { fingerprintVersion: cache.version } : {}),
            })
          : null,
    });
    const asked: number[] = [];
    const client = new LicenseClientCore({
      serverUrl: "http://127.0.0.1:9",
      publicKey: tokenVector.publicKeyHex,
      storage,
      hwFingerprint: async (v) => {
        asked.push(v);
        return `fingerprint-${v}`;
      },
      fetch: unreachable,
      clock: () => markerVector.payload.iat * 1000,
      scheduler: manualScheduler(),
    });
    await client.initialize();
    expect(asked).toEqual([version]);
    expect(JSON.parse(storage.state!).fingerprintVersion).toBe(version);
    await client.dispose();
  });
});
