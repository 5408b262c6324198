import { copyFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  manualScheduler,
  offlineFetch,
  startSdkTestServer,
  type SdkTestServer,
} from "../../testing/index.ts";
import { inspectLicenseFile } from "./inspect-file.ts";

// A fired timer's request reaches the real server; expect.poll's one-second default is no bound for a
// loaded machine. This only bounds a hang.
const PATIENCE = { timeout: 15_000 };
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let server: SdkTestServer;
beforeAll(async () => {
  server = await startSdkTestServer();
});
afterAll(() => server.close());

/** A license activated once on `machine-a` and left with its marker cached (no deactivation). */
async function cachedLicense() {
  const onDisk = await server.licenseOnDisk();
  const client = server.client(onDisk, { deactivateOnDispose: false });
  await client.initialize();
  const details = client.statusDetails;
  await client.dispose();
  return { onDisk, markerExpiresAt: details.markerExpiresAt!, activationId: details.activationId! };
}

describe("clock defences", () => {
  it.each([
    ["behind", -2 * HOUR],
    ["ahead", 3 * HOUR],
  ])(
    "a clock %s the server's is corrected from the response Date, and the heartbeat goes through",
    async (_, skew) => {
      const onDisk = await server.licenseOnDisk();
      const client = server.client(onDisk, { clock: () => server.clock() + skew });
      await client.initialize();
      expect(await client.heartbeat()).toBe(true);
      expect(client.statusDetails.lastError).toBeNull();
      const heartbeats = await server.admin.api.activations.heartbeats({ params: { id: onDisk.license.id } });
      expect(heartbeats.body).toHaveLength(1);
      // The learned offset signs the next request at once.
      expect(await client.heartbeat()).toBe(true);
      await client.dispose();
    },
  );

  it("a clock set back behind the observed time does not extend the marker, across restarts", async () => {
    const { onDisk, markerExpiresAt } = await cachedLicense();
    server.app.clock.set(new Date(markerExpiresAt + SECOND));
    const late = server.client(onDisk, { fetch: offlineFetch });
    await late.initialize();
    expect(late.status).toBe("GracePeriod");
    await late.dispose();

    const rolledBack = () => server.clock() - 3 * DAY;
    const cheat = server.client(onDisk, { fetch: offlineFetch, clock: rolledBack });
    await cheat.initialize();
    expect(cheat.statusDetails).toMatchObject({
      status: "GracePeriod",
      at: markerExpiresAt + SECOND,
      clockBehindBy: 3 * DAY,
    });
    // Time goes on from the observed time as the set-back clock moves.
    server.app.clock.advance(DAY);
    expect(cheat.statusDetails).toMatchObject({ status: "Expired", reason: "grace-ended" });
    await cheat.dispose();
  });

  it("the observed time never runs ahead of a fresh marker: a clock that ran fast is healed online", async () => {
    const { onDisk } = await cachedLicense();
    const fast = server.client(onDisk, { fetch: offlineFetch, clock: () => server.clock() + 30 * DAY });
    await fast.initialize();
    expect(fast.status).toBe("Expired");
    await fast.dispose();
    server.app.clock.advance(MINUTE);
    const corrected = server.client(onDisk);
    await corrected.initialize();
    expect(corrected.statusDetails).toMatchObject({ status: "Active", clockBehindBy: 0 });
    await corrected.dispose();
  });
});

describe("the marker cache", () => {
  it("a tampered .hb is ignored, never crashes, and is replaced by the next marker", async () => {
    const { onDisk } = await cachedLicense();
    const marker = await readFile(`${onDisk.path}.hb`, "utf8");
    const [body, signature] = marker.split(".") as [string, string];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const extended = Buffer.from(JSON.stringify({ ...payload, exp: payload.exp + 365 * 86_400 })).toString(
      "base64url",
    );
    for (const [text, problem] of [
      [`${extended}.${signature}`, "signature-invalid"],
      ["\u0000\u00ff garbage", "malformed"],
    ] as const) {
      await writeFile(`${onDisk.path}.hb`, text);
      const offline = server.client(onDisk, { fetch: offlineFetch });
      expect(await offline.initialize()).toBe(true);
      expect(offline.statusDetails).toMatchObject({
        status: "Expired",
        reason: "no-marker",
        markerProblem: problem,
      });
      await offline.dispose();
    }
    const online = server.client(onDisk);
    await online.initialize();
    expect(online.statusDetails).toMatchObject({ status: "Active", markerProblem: null });
    expect(await readFile(`${onDisk.path}.hb`, "utf8")).not.toContain("garbage");
    await online.dispose();
  });

  it("a .hb and state copied from another machine are ignored", async () => {
    const { onDisk } = await cachedLicense();
    const otherMachine = join(onDisk.dir, "copy.lic");
    for (const suffix of ["", ".hb", ".state.json"])
      await copyFile(`${onDisk.path}${suffix}`, `${otherMachine}${suffix}`);
    const copy = server.client(
      { ...onDisk, path: otherMachine },
      { fetch: offlineFetch, hwFingerprint: "machine-b" },
    );
    await copy.initialize();
    expect(copy.statusDetails).toMatchObject({
      status: "Expired",
      reason: "no-marker",
      markerProblem: "other-machine",
    });
    await copy.dispose();
  });

  it("a support tool explains the files without the network", async () => {
    const { onDisk, markerExpiresAt, activationId } = await cachedLicense();
    const inspection = await inspectLicenseFile({
      licenseFilePath: onDisk.path,
      publicKey: onDisk.license.publicKey,
      hwFingerprint: "machine-a",
      now: markerExpiresAt + HOUR,
    });
    expect(inspection.details).toMatchObject({ status: "GracePeriod", reason: "marker-expired" });
    expect(inspection).toMatchObject({
      activationId,
      markerProblem: null,
      paths: { marker: `${onDisk.path}.hb` },
    });
    expect(inspection.marker?.payload).toMatchObject({
      lid: onDisk.license.id,
      aid: activationId,
      fp: "machine-a",
    });
  });
});

describe("heartbeat schedule", () => {
  it("beats on the server's interval with jitter; 503s are retried with backoff honouring Retry-After", async () => {
    const onDisk = await server.licenseOnDisk();
    const scheduler = manualScheduler();
    let failing = false;
    const requests: string[] = [];
    const flaky: typeof fetch = async (input, init) => {
      requests.push(String(input));
      if (!failing) return fetch(input, init);
      return new Response(JSON.stringify({ code: "internal", message: "down", status: 503 }), {
        status: 503,
        headers: { "retry-after": "120", "content-type": "application/json" },
      });
    };
    const client = server.client(onDisk, { fetch: flaky, scheduler });
    await client.initialize();
    const heartbeat = (delay: number) => delay > MINUTE;
    const interval = scheduler.pending().find(heartbeat)!;
    expect(interval).toBeGreaterThanOrEqual(0.9 * 900 * SECOND);
    expect(interval).toBeLessThanOrEqual(1.1 * 900 * SECOND);

    failing = true;
    scheduler.fire(heartbeat);
    await expect.poll(() => client.statusDetails.lastError?.code, PATIENCE).toBe("internal");
    const retry = scheduler.pending().find(heartbeat)!;
    expect(retry).toBeGreaterThanOrEqual(120 * SECOND);
    expect(client.statusDetails.heartbeating).toBe(true);

    failing = false;
    scheduler.fire(heartbeat);
    await expect.poll(() => client.statusDetails.lastError, PATIENCE).toBeNull();
    expect(requests.filter((r) => r.endsWith("/heartbeat"))).toHaveLength(2);
    await client.dispose();
  });

  it("an activation that failed offline is retried by the schedule", async () => {
    const onDisk = await server.licenseOnDisk();
    const scheduler = manualScheduler();
    let online = false;
    const client = server.client(onDisk, {
      scheduler,
      fetch: (input, init) => (online ? fetch(input, init) : offlineFetch(input, init)),
    });
    await client.initialize();
    expect(client.statusDetails).toMatchObject({ status: "Expired", heartbeating: true });
    online = true;
    scheduler.fire((delay) => delay < MINUTE);
    await expect.poll(() => client.statusDetails.status, PATIENCE).toBe("Active");
    await client.dispose();
  });
});
