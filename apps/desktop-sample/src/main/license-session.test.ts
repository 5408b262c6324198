import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LicenseView } from "../shared/bridge.ts";
import { startDesktopTestServer, type DesktopTestServer } from "../testing/server.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const config = JSON.stringify({ features: ["export"], limits: { maxSeats: 2, maxProjects: 5 } });

let server: DesktopTestServer;
beforeAll(async () => {
  server = await startDesktopTestServer();
});
afterAll(() => server.close());

describe("first run: choosing a license file", () => {
  it("installs the chosen .lic, initializes, activates this machine and shows the terms without the key", async () => {
    const { license, path } = await server.licenseFile({ config });
    const session = await server.session();
    expect(session.view()).toMatchObject({ phase: "first-run", status: "Invalid", license: null });

    expect(await session.installFile(path)).toEqual({ ok: true });
    const view = session.view();
    expect(view).toMatchObject({
      phase: "ready",
      status: "Active",
      reason: "marker-valid",
      usable: true,
      license: { licenseId: license.id, features: ["export"], limits: { maxSeats: 2, maxProjects: 5 } },
      fingerprint: { value: "machine-a", derivedFrom: "configured" },
      connection: { activated: true, heartbeating: true, lastError: null },
      gating: { exportUnlocked: true, maxProjects: 5 },
    });
    expect(view.marker!.expiresAt).toBe(Math.floor(server.clock() / 1000) * 1000 + 7 * DAY);
    expect(view.marker!.graceEndsAt).toBe(view.marker!.expiresAt + DAY);
    // The renderer never learns the license key.
    expect(JSON.stringify(view)).not.toContain(license.licenseKey);
    expect(await server.activations(license.id)).toMatchObject([
      { status: "active", hwFingerprint: "machine-a" },
    ]);
  });

  it("refuses a missing file, a file that is no license, another product's license and an expired one", async () => {
    const session = await server.session();
    const failure = async (result: Promise<unknown>) =>
      ((await result) as { error?: { code: string } }).error?.code;
    const { path } = await server.licenseFile();
    expect(await failure(session.installFile(`${path}.nothing`))).toBe("license.file_missing");
    await writeFile(`${path}.txt`, "hello");
    expect(await failure(session.installFile(`${path}.txt`))).toBe("license.file_unreadable");

    // The first install pins this product's public key; a license of another template then fails its signature.
    expect(await session.installFile(path)).toEqual({ ok: true });
    const foreign = await server.otherProductLicenseFile();
    expect(await failure(session.installFile(foreign.path))).toBe("license.signature_invalid");
    expect(session.view().status).toBe("Active");

    const short = await server.licenseFile({ expiresAt: new Date(server.clock() + 2 * DAY).toISOString() });
    expect(await session.advanceClock(3 * DAY)).toEqual({ ok: true });
    expect(await session.installFile(short.path)).toMatchObject({
      ok: false,
      error: { code: "license.expired", message: expect.stringContaining("expired on") },
    });
  });

  it("pasting a key fetches its file from the address given; a wrong key or address is refused", async () => {
    const { license, path } = await server.licenseFile({ config });
    const file = await readFile(path, "utf8");
    // The vendor's download site: serves the panel's file for its own key only.
    const portal = createServer((req, res) => {
      if (req.url === `/licenses/${license.licenseKey}.lic`) res.writeHead(200).end(file);
      else if (req.url === "/huge.lic") res.writeHead(200).end("x".repeat(2 * 1024 * 1024));
      else res.writeHead(404).end("not found");
    });
    await new Promise<void>((resolve) => portal.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(portal.address() as AddressInfo).port}`;
    try {
      const session = await server.session();
      const fetchLicense = (licenseKey: string, url: string) => session.fetchLicense({ licenseKey, url });
      expect(await fetchLicense("SVC-123", `${base}/licenses/{licenseKey}.lic`)).toMatchObject({
        ok: false,
        error: { code: "input.invalid", message: expect.stringContaining("SVC-XXXXX") },
      });
      expect(await fetchLicense(license.licenseKey, "file:///etc/passwd")).toMatchObject({
        ok: false,
        error: { code: "input.invalid" },
      });
      const other = await server.licenseFile();
      expect(await fetchLicense(other.license.licenseKey, `${base}/licenses/{licenseKey}.lic`)).toMatchObject(
        {
          ok: false,
          error: { code: "download.failed", message: expect.stringContaining("404") },
        },
      );
      expect(
        await fetchLicense(other.license.licenseKey, `${base}/licenses/${license.licenseKey}.lic`),
      ).toMatchObject({
        ok: false,
        error: { code: "license.key_mismatch" },
      });
      expect(await fetchLicense(license.licenseKey, `${base}/huge.lic`)).toMatchObject({
        ok: false,
        error: { code: "license.file_unreadable" },
      });
      expect(session.view().phase).toBe("first-run");

      const pasted = `  ${license.licenseKey.toLowerCase()} `;
      expect(await fetchLicense(pasted, `${base}/licenses/{licenseKey}.lic`)).toEqual({ ok: true });
      expect(session.view()).toMatchObject({
        phase: "ready",
        status: "Active",
        license: { licenseId: license.id },
      });
    } finally {
      await new Promise((resolve) => portal.close(resolve));
    }
  });
});

describe("status pushed to the renderer, and the QA levers", () => {
  it("offline, the clock moved by days: Active, GracePeriod, Expired pushed as they happen, export locked", async () => {
    const { path } = await server.licenseFile({ config });
    const session = await server.session();
    const pushed: LicenseView[] = [];
    session.onView((view) => pushed.push(view));
    await session.installFile(path);
    expect(pushed.at(-1)).toMatchObject({ status: "Active", gating: { exportUnlocked: true } });
    const markerExpiresAt = session.view().marker!.expiresAt;

    expect(await session.setNetwork("offline")).toEqual({ ok: true });
    expect(pushed.at(-1)!.qa.network).toBe("offline");
    expect(await session.advanceClock(7 * DAY + HOUR)).toEqual({ ok: true });
    expect(pushed.at(-1)).toMatchObject({
      status: "GracePeriod",
      reason: "marker-expired",
      usable: true,
      nextStatus: "Expired",
      nextTransitionAt: markerExpiresAt + DAY,
      qa: { clockOffsetMs: 7 * DAY + HOUR },
    });
    expect(await session.heartbeat()).toMatchObject({
      ok: false,
      error: { code: "server.unreachable", message: expect.stringContaining("network.error") },
    });
    expect(await session.advanceClock(DAY)).toEqual({ ok: true });
    expect(pushed.at(-1)).toMatchObject({
      status: "Expired",
      reason: "grace-ended",
      usable: false,
      gating: { exportUnlocked: false, maxProjects: null },
      license: { features: ["export"] },
    });
    const statuses = pushed.map((view) => view.status).filter((s, i, all) => s !== all[i - 1]);
    expect(statuses).toEqual(["Active", "GracePeriod", "Expired"]);

    // Back online with the clock reset a while later: the next check-in brings a fresh marker, whose
    // signed time takes back the time the QA clock ran ahead.
    server.app.clock.advance(HOUR);
    await session.resetClock();
    await session.setNetwork("online");
    expect(await session.heartbeat()).toEqual({ ok: true });
    expect(pushed.at(-1)).toMatchObject({ status: "Active", connection: { lastError: null } });
  });

  it("time passing on its own (no action) pushes the change: the refresh re-reads the status", async () => {
    const { path } = await server.licenseFile();
    const session = await server.session({ refreshIntervalMs: 20 });
    await session.installFile(path);
    await session.setNetwork("offline");
    const pushed: LicenseView[] = [];
    session.onView((view) => pushed.push(view));
    // The real clock under the QA offset moves (here: the server's manual clock the session reads).
    server.app.clock.advance(7 * DAY + HOUR);
    // The refresh runs on a real 20 ms timer; the wait only bounds a hang.
    await vi.waitFor(() => expect(pushed.at(-1)?.status).toBe("GracePeriod"), { timeout: 20_000 });
    expect(pushed.at(-1)!.qa.clockOffsetMs).toBe(0);
  });

  it("server errors: a check-in fails with the 503 and the license stays Active on its marker", async () => {
    const { path } = await server.licenseFile();
    const session = await server.session();
    await session.installFile(path);
    await session.setNetwork("server-error");
    expect(await session.heartbeat()).toMatchObject({ ok: false, error: { code: "server.unreachable" } });
    expect(session.view()).toMatchObject({
      status: "Active",
      connection: { lastError: { status: 503 } },
    });
  });

  it("the clock refuses a step backwards or a bad number", async () => {
    const session = await server.session();
    for (const ms of [-HOUR, 0, 1.5, Number.NaN, 500 * DAY]) {
      expect(await session.advanceClock(ms)).toMatchObject({ ok: false, error: { code: "input.invalid" } });
    }
    expect(session.view().qa.clockOffsetMs).toBe(0);
  });

  it("restart offline: the new client starts Active from the cached marker", async () => {
    const { license, path } = await server.licenseFile();
    const session = await server.session();
    await session.installFile(path);
    await session.setNetwork("offline");
    expect(await session.restart()).toEqual({ ok: true });
    expect(session.view()).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      connection: { lastError: { code: "network.error" } },
      license: { licenseId: license.id },
    });
  });

  it("with QA off every lever is refused", async () => {
    const session = await server.session({ qa: false });
    for (const result of [
      session.setNetwork("offline"),
      session.advanceClock(DAY),
      session.resetClock(),
      session.restart(),
    ]) {
      expect(await result).toMatchObject({ ok: false, error: { code: "qa.disabled" } });
    }
    expect(session.view().qa).toEqual({ enabled: false, network: "online", clockOffsetMs: 0 });
  });
});

describe("deactivate this machine", () => {
  it("frees the seat on the server and locks the app until it activates again", async () => {
    const { license, path } = await server.licenseFile({ config });
    const session = await server.session();
    await session.installFile(path);
    expect(await session.deactivate()).toEqual({ ok: true });
    expect(await server.activations(license.id)).toMatchObject([{ status: "deactivated" }]);
    expect(session.view()).toMatchObject({
      status: "Expired",
      reason: "no-marker",
      connection: { activated: false },
      gating: { exportUnlocked: false },
    });

    expect(await session.heartbeat()).toEqual({ ok: true });
    expect(session.view()).toMatchObject({ status: "Active", connection: { activated: true } });
  });

  it("offline, deactivation fails with the reason and the seat stays taken", async () => {
    const { license, path } = await server.licenseFile();
    const session = await server.session();
    await session.installFile(path);
    await session.setNetwork("offline");
    expect(await session.deactivate()).toMatchObject({ ok: false, error: { code: "server.unreachable" } });
    expect(await server.activations(license.id)).toMatchObject([{ status: "active" }]);
  });

  it("without a license there is nothing to deactivate", async () => {
    const session = await server.session();
    expect(await session.deactivate()).toMatchObject({ ok: false, error: { code: "license.not_installed" } });
  });
});

describe("refused activations", () => {
  const seats = (maxSeats: number) =>
    JSON.stringify({ features: ["export"], limits: { maxSeats, maxProjects: 5 } });

  it("a full license: the machines are named by seat id, never activation id; only a listed seat can be freed", async () => {
    const onDisk = await server.licenseFile({ config: seats(1) });
    const office = await server.otherMachine(onDisk, {
      hwFingerprint: "machine-o",
      machineName: "Office PC",
    });
    const officeId = office.statusDetails.activationId!;
    const session = await server.session();
    expect(await session.installFile(onDisk.path)).toEqual({ ok: true });
    const view = session.view();
    expect(view).toMatchObject({
      status: "Expired",
      reason: "seat-limit",
      usable: false,
      retryAt: null,
      machines: [
        { seatId: expect.any(String), name: "Office PC", activatedAt: server.clock(), lastHeartbeatAt: null },
      ],
      connection: { activated: false, lastError: { code: "activation.seat_limit_reached" } },
    });
    expect(JSON.stringify(view)).not.toContain(officeId);
    // The same machine keeps its name from view to view.
    expect(session.view().machines![0]!.seatId).toBe(view.machines![0]!.seatId);

    expect(await session.freeSeat(randomUUID())).toMatchObject({
      ok: false,
      error: { code: "seat.unknown" },
    });
    await session.setNetwork("offline");
    expect(await session.freeSeat(view.machines![0]!.seatId)).toMatchObject({
      ok: false,
      error: { code: "server.unreachable" },
    });
    expect((await server.activations(onDisk.license.id)).map((a) => a.status)).toEqual(["active"]);

    await session.setNetwork("online");
    expect(await session.freeSeat(view.machines![0]!.seatId)).toEqual({ ok: true });
    expect(session.view()).toMatchObject({ status: "Active", reason: "marker-valid", machines: null });
  });

  it("a floating license with every seat leased: no-seat, the holders by name, since and until, and retryAt", async () => {
    const onDisk = await server.licenseFile({ seatModel: "floating", config: seats(1) });
    const office = await server.otherMachine(onDisk, {
      hwFingerprint: "machine-o",
      machineName: "Office PC",
    });
    const officeEnds = office.seat!.expiresAt!;
    const session = await server.session();
    expect(await session.installFile(onDisk.path)).toEqual({ ok: true });
    const view = session.view();
    expect(view).toMatchObject({
      status: "Expired",
      reason: "no-seat",
      usable: false,
      holders: [{ name: "Office PC", since: expect.any(Number), until: expect.any(Number) }],
      connection: { activated: true, lastError: { code: "lease.seats_exhausted" } },
    });
    // The server's times, to the millisecond; the lease token's end is whole seconds.
    expect(Math.floor(view.holders![0]!.until / 1000)).toBe(officeEnds / 1000);
    expect(view.retryAt).toBe(view.holders![0]!.until);
    expect(JSON.stringify(view)).not.toContain(office.statusDetails.activationId!);
  });

  it("another machine takes the freed seat first: seat.not_taken, and the list names it", async () => {
    const onDisk = await server.licenseFile({ config: seats(1) });
    await server.otherMachine(onDisk, { hwFingerprint: "machine-o", machineName: "Office PC" });
    let intruder: Promise<unknown> | null = null;
    // The network between this app and the server: the moment the seat is freed, another computer takes it.
    const racingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).endsWith("/client/deactivate") && !intruder) {
        intruder = server.otherMachine(onDisk, { hwFingerprint: "machine-i", machineName: "Intruder" });
        await intruder;
      }
      return response;
    };
    const session = await server.session({ fetch: racingFetch });
    await session.installFile(onDisk.path);
    const [office] = session.view().machines!;
    expect(await session.freeSeat(office!.seatId)).toMatchObject({
      ok: false,
      error: { code: "seat.not_taken", message: expect.stringContaining("another machine took it first") },
    });
    expect(session.view()).toMatchObject({ reason: "seat-limit", machines: [{ name: "Intruder" }] });
  });

  it("a spent device budget carries the time this machine may activate; a revoked license says so", async () => {
    const budget = await server.licenseFile({ maxNewDevicesPerWindow: 1, newDeviceWindowDays: 30 });
    await server.otherMachine(budget, { hwFingerprint: "machine-o", machineName: "Office PC" });
    const activatedAt = server.clock();
    const session = await server.session();
    await session.installFile(budget.path);
    expect(session.view()).toMatchObject({
      status: "Expired",
      reason: "device-budget",
      retryAt: activatedAt + 30 * DAY,
      machines: null,
      connection: { heartbeating: true, lastError: { code: "activation.device_budget_exhausted" } },
    });

    const revoked = await server.licenseFile();
    await server.admin.api.licenses.revoke({
      params: { id: revoked.license.id },
      body: { reason: "refund" },
    });
    const other = await server.session();
    await other.installFile(revoked.path);
    expect(other.view()).toMatchObject({
      status: "Expired",
      reason: "license-not-active",
      connection: { heartbeating: false, lastError: { code: "license.not_active" } },
    });
  });
});
