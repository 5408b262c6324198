import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TimerKind } from "../client/scheduler.ts";
import type { Seat } from "../client/seat.ts";
import { LicensingApiError } from "../http/server-api.ts";
import {
  manualScheduler,
  offlineFetch,
  startSdkTestServer,
  watchTimer,
  type LicenseOnDisk,
  type LicenseTerms,
  type SdkTestServer,
} from "../../testing/index.ts";

/**
 * Issue 23 §4 against the real server: a floating license leases a seat in `initialize`, renews it, keeps it
 * through failures, gives it back in `dispose`, borrows it for offline work, and says when none is free
 * (decision 0052).
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 86_400 * SECOND;
const PATIENCE = { timeout: 15_000 };
const network = (_delayMs: number, kind: TimerKind) => kind === "network";
let server: SdkTestServer;
beforeAll(async () => {
  server = await startSdkTestServer();
});
afterAll(() => server.close());
// A lease token's exp is whole seconds: a clock on a whole second makes the lease end where the server's does.
beforeEach(() => server.app.clock.set(new Date(Math.ceil(server.clock() / SECOND) * SECOND)));

const floating = (maxSeats = 1, terms: LicenseTerms = {}) =>
  server.licenseOnDisk({
    seatModel: "floating",
    config: JSON.stringify({ features: [], limits: { maxSeats } }),
    ...terms,
  });
const liveLeases = async (onDisk: LicenseOnDisk) => {
  const res = await server.admin.api.leases.list({ params: { id: onDisk.license.id } });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
/** A fetch whose lease calls (or every call) fail while `down` is set, as a network outage would. */
function flakyFetch(match = "/leases") {
  const calls: string[] = [];
  const control = {
    down: false,
    calls,
    fetch: (async (input, init) => {
      const url = String(input);
      calls.push(url.replace(/.*\/client\//, ""));
      if (control.down && url.includes(match)) return offlineFetch(input, init);
      return fetch(input, init);
    }) as typeof fetch,
  };
  return control;
}
/** Renew timers: the shortest network timer is the lease's (the heartbeat's interval is longer). */
const leaseTimer = network;

describe("a floating license's lease", () => {
  it("is acquired in initialize, renewed at renewAfterSeconds with jitter and released in dispose", async () => {
    const onDisk = await floating();
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { scheduler });
    const seats: Seat[] = [];
    client.onSeatChange((seat) => seats.push(seat));
    expect(await client.initialize()).toBe(true);
    const acquiredAt = server.clock();
    expect(client.statusDetails).toMatchObject({
      status: "Active",
      reason: "lease-held",
      leaseExpiresAt: acquiredAt + 900 * SECOND,
      holders: null,
    });
    expect(client.seat).toMatchObject({ state: "held", expiresAt: acquiredAt + 900 * SECOND });
    expect(client.license).toMatchObject({ seatModel: "floating", leaseSeconds: 900, maxBorrowDays: 0 });
    const [lease] = await liveLeases(onDisk);
    expect(lease).toMatchObject({ leaseId: client.seat!.leaseId, machineName: "Test machine" });

    // renewAfterSeconds is 300 for a 900-second lease: the timer waits 300 s ± 10 %.
    const renewIn = scheduler.pending("network")[0]!;
    expect(renewIn).toBeGreaterThanOrEqual(270 * SECOND);
    expect(renewIn).toBeLessThanOrEqual(330 * SECOND);
    server.app.clock.advance(renewIn);
    scheduler.fire(network);
    // The token's exp, in whole seconds.
    const renewedEnd = Math.floor((server.clock() + 900 * SECOND) / SECOND) * SECOND;
    await expect.poll(() => client.seat!.expiresAt, PATIENCE).toBe(renewedEnd);
    expect(client.seat!.leaseId).toBe(lease!.leaseId);

    await client.dispose();
    expect(await liveLeases(onDisk)).toEqual([]);
    expect(seats[0]).toMatchObject({ state: "held", leaseId: lease!.leaseId });
  });

  it("keeps the seat through failed renewals (backoff, no throw) until the lease ends: then Expired, lease-expired", async () => {
    const onDisk = await floating();
    const scheduler = manualScheduler();
    const net = flakyFetch();
    const client = server.client(onDisk, { scheduler, fetch: net.fetch, deactivateOnDispose: false });
    await client.initialize();
    const end = client.seat!.expiresAt!;
    net.down = true;
    server.app.clock.advance(300 * SECOND);
    scheduler.fire(leaseTimer);
    await expect.poll(() => client.statusDetails.lastError?.code, PATIENCE).toBe("network.error");
    expect(net.calls.filter((c) => c === "leases/renew")).toHaveLength(1);
    expect(client.statusDetails).toMatchObject({ status: "Active", reason: "lease-held" });
    // The first retry comes after 5–10 s, not at the next renewal.
    const retry = scheduler.pending("network")[0]!;
    expect(retry).toBeGreaterThanOrEqual(5 * SECOND);
    expect(retry).toBeLessThanOrEqual(10 * SECOND);
    // Retried with growing waits, none past the lease's end.
    let tries = 1;
    while (server.clock() < end - 2 * SECOND) {
      const delay = scheduler.pending("network")[0]!;
      expect(server.clock() + delay).toBeLessThanOrEqual(end);
      server.app.clock.advance(delay);
      scheduler.fire(leaseTimer);
      await expect.poll(() => net.calls.filter((c) => c === "leases/renew").length, PATIENCE).toBe(++tries);
    }
    expect(tries).toBeGreaterThan(3);
    server.app.clock.set(new Date(end));
    expect(client.statusDetails).toMatchObject({ status: "Expired", reason: "lease-expired" });
    expect(client.isUsable).toBe(false);
    // Back online: the expired lease comes back (a seat is free) under the same id.
    net.down = false;
    scheduler.fire(leaseTimer);
    await expect.poll(() => client.status, PATIENCE).toBe("Active");
    await client.dispose();
  });

  it("no seat: Expired with reason no-seat, holders and retryAt; picks up a freed seat within retryAt + 5 s", async () => {
    const onDisk = await floating(1);
    const first = server.client(onDisk);
    await first.initialize();
    const firstEnds = first.seat!.expiresAt!;

    server.app.clock.advance(MINUTE);
    const scheduler = manualScheduler();
    const second = server.client(onDisk, {
      scheduler,
      hwFingerprint: "machine-b",
      machineName: "Second",
    });
    const seats: Seat[] = [];
    second.onSeatChange((seat) => seats.push(seat));
    await second.initialize();
    expect(second.statusDetails).toMatchObject({
      status: "Expired",
      reason: "no-seat",
      retryAt: firstEnds,
      holders: [{ machineName: "Test machine", expiresAt: firstEnds }],
    });
    expect(second.isUsable).toBe(false);
    expect(second.seat).toMatchObject({ state: "none", leaseId: null, retryAt: firstEnds });
    const retryIn = scheduler.pending().find((d) => d > 1000)!;
    expect(server.clock() + retryIn).toBeLessThanOrEqual(firstEnds + 5 * SECOND);

    await first.dispose();
    server.app.clock.advance(retryIn);
    scheduler.fire(network);
    await expect.poll(() => second.statusDetails.reason, PATIENCE).toBe("lease-held");
    expect(seats.at(-1)).toMatchObject({ state: "held", holders: null, retryAt: null });
    await second.dispose();
  });

  it("a lease force-released from the panel (410) is replaced by a new acquire", async () => {
    const onDisk = await floating();
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { scheduler });
    await client.initialize();
    const leaseId = client.seat!.leaseId!;
    expect((await server.admin.api.leases.forceRelease({ params: { leaseId } })).status).toBe(204);
    server.app.clock.advance(300 * SECOND);
    scheduler.fire(leaseTimer);
    await expect.poll(() => client.seat?.leaseId ?? leaseId, PATIENCE).not.toBe(leaseId);
    expect(client.seat).toMatchObject({ state: "held" });
    expect((await liveLeases(onDisk)).map((l) => l.leaseId)).toEqual([client.seat!.leaseId]);
    await client.dispose();
  });

  it("a machine that wakes from sleep renews at once: the watch notices the clock's jump", async () => {
    const onDisk = await floating();
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { scheduler });
    await client.initialize();
    // Two hours asleep: no timer ran, the lease ended on the server.
    server.app.clock.advance(2 * 60 * MINUTE);
    scheduler.fire(watchTimer);
    await expect.poll(() => client.seat?.expiresAt, PATIENCE).toBe(server.clock() + 900 * SECOND);
    expect(client.status).toBe("Active");
    await client.dispose();
  });

  it("a node-locked license makes no lease call and has no seat", async () => {
    const onDisk = await server.licenseOnDisk();
    const net = flakyFetch();
    const client = server.client(onDisk, { fetch: net.fetch });
    await client.initialize();
    expect(client.statusDetails).toMatchObject({ status: "Active", reason: "marker-valid", seat: null });
    expect(client.seat).toBeNull();
    expect(client.license).toMatchObject({ seatModel: "nodeLocked", leaseSeconds: null });
    await client.dispose();
    expect(net.calls.filter((c) => c.startsWith("leases"))).toEqual([]);
  });

  it("a revoked license (immediate) with a lease is Revoked at the next renewal, and asks no more", async () => {
    const onDisk = await floating(1, { revocation: "immediate" });
    const scheduler = manualScheduler();
    const client = server.client(onDisk, { scheduler, deactivateOnDispose: false });
    await client.initialize();
    const res = await server.admin.api.licenses.revoke({ params: { id: onDisk.license.id }, body: {} });
    expect(res.status).toBe(204);
    server.app.clock.advance(300 * SECOND);
    scheduler.fire(leaseTimer);
    await expect.poll(() => client.status, PATIENCE).toBe("Revoked");
    expect(client.seat).toMatchObject({ state: "none" });
    await client.dispose();
  });
});

describe("borrowing", () => {
  it("borrow(until) keeps the seat across an offline restart; returnBorrowed frees it and leases again", async () => {
    const onDisk = await floating(1, { maxBorrowDays: 7 });
    const client = server.client(onDisk);
    await client.initialize();
    const until = server.clock() + 2 * DAY;
    expect(await client.borrow(new Date(until))).toMatchObject({
      state: "borrowed",
      borrowedUntil: until,
      expiresAt: until,
    });
    expect(client.statusDetails).toMatchObject({ status: "Active", reason: "lease-borrowed" });
    await client.dispose();
    // The borrowed lease (and the activation) outlive dispose.
    expect(await liveLeases(onDisk)).toMatchObject([{ borrowedUntil: new Date(until).toISOString() }]);
    const state = JSON.parse(await readFile(`${onDisk.path}.state.json`, "utf8"));
    expect(typeof state.borrowedLease).toBe("string");

    server.app.clock.advance(DAY);
    const offline = server.client(onDisk, { fetch: offlineFetch });
    expect(await offline.initialize()).toBe(true);
    expect(offline.statusDetails).toMatchObject({ status: "Active", reason: "lease-borrowed" });
    expect(offline.seat).toMatchObject({ state: "borrowed", borrowedUntil: until });
    await offline.dispose();

    // Copied to another machine, the borrow is refused: the token names this machine's fingerprint.
    const copy = { ...onDisk, dir: await server.scratchDir() };
    copy.path = join(copy.dir, "copy.lic");
    await copyFile(onDisk.path, copy.path);
    await copyFile(`${onDisk.path}.state.json`, `${copy.path}.state.json`);
    const elsewhere = server.client(copy, { fetch: offlineFetch, hwFingerprint: "machine-z" });
    await elsewhere.initialize();
    expect(elsewhere.statusDetails).toMatchObject({
      status: "Expired",
      reason: "no-lease",
      seat: { state: "none" },
    });
    await elsewhere.dispose();

    const online = server.client(onDisk);
    await online.initialize();
    expect(online.seat).toMatchObject({ state: "borrowed" });
    const borrowedId = online.seat!.leaseId;
    const seat = await online.returnBorrowed();
    expect(seat).toMatchObject({ state: "held", borrowedUntil: null });
    expect(seat.leaseId).not.toBe(borrowedId);
    expect(await liveLeases(onDisk)).toMatchObject([{ leaseId: seat.leaseId, borrowedUntil: null }]);
    await online.dispose();
    expect(await liveLeases(onDisk)).toEqual([]);
  });

  it("the limits' refusals are typed errors, and the seat stays as it was", async () => {
    const error = (promise: Promise<unknown>) =>
      promise.then(
        () => null,
        (e: unknown) => (e instanceof LicensingApiError ? e.code : e),
      );
    const onDisk = await floating(1, { maxBorrowDays: 7 });
    const client = server.client(onDisk);
    await client.initialize();
    expect(await error(client.borrow(server.clock() + 8 * DAY))).toBe("lease.borrow_too_long");
    expect(client.seat).toMatchObject({ state: "held" });
    await client.dispose();

    const noBorrowing = await floating(1);
    const other = server.client(noBorrowing);
    await other.initialize();
    expect(await error(other.borrow(server.clock() + DAY))).toBe("lease.borrow_not_allowed");
    expect(other.seat).toMatchObject({ state: "held" });
    await other.dispose();
  });
});
