import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlineFetch } from "@licensing/client/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDesktopTestServer, type DesktopTestServer } from "../testing/server.ts";

/**
 * "Activate without internet" in the main process, against the real server: the request (text and QR
 * code), the vendor's panel answering it, the response applied with no network call, the refusals, and the
 * offline deactivation whose receipt frees the seat in the panel.
 */
const DAY = 86_400_000;
const config = JSON.stringify({ features: ["export"], limits: { maxSeats: 2, maxProjects: 5 } });

let server: DesktopTestServer;
const dirs: string[] = [];
beforeAll(async () => {
  server = await startDesktopTestServer();
});
afterAll(async () => {
  await server.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), "desktop-offline-"));
  dirs.push(dir);
  return dir;
};

/** The vendor's panel answering a request (Admin, through the REST API). */
async function panelAnswer(licenseId: string, request: string, validDays?: number) {
  const res = await server.admin.api.activations.offlineActivate({
    params: { id: licenseId },
    body: { request, ...(validDays && { validDays }) },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("activate without internet", () => {
  it(
    "request with its QR code, the panel's response, Active with no network call; deactivated offline, the receipt frees the seat",
    { timeout: 60_000 },
    async () => {
      const onDisk = await server.licenseFile({ config });
      const { license } = onDisk;
      let calls = 0;
      const counted: typeof fetch = (input, init) => (calls++, fetch(input, init));
      const dataDir = await scratch();
      // A product for air-gapped machines builds its public key in: nothing is fetched to install.
      const session = await server.session({ dataDir, publicKey: license.publicKey, fetch: counted });
      await session.setNetwork("offline");
      expect(await session.installFile(onDisk.path)).toEqual({ ok: true });
      expect(session.view()).toMatchObject({
        status: "Expired",
        reason: "no-marker",
        offline: { request: null, certificateExpiresAt: null, receipt: null },
      });

      expect(await session.createOfflineRequest()).toEqual({ ok: true });
      const { request } = session.view().offline;
      expect(request!.text).toMatch(/^-----BEGIN LICENSE ACTIVATION REQUEST-----\n[\s\S]+-----END/);
      expect(request!.text.length).toBeLessThanOrEqual(1200);
      expect(request!.qrCode).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+=*$/);
      const svg = Buffer.from(request!.qrCode.split(",")[1]!, "base64").toString("utf8");
      expect(svg).toMatch(/^<svg [^>]*>/);
      expect(svg).not.toMatch(/<script|<foreignObject|\son\w+=|href=/i);
      expect(JSON.stringify(session.view())).not.toContain(license.licenseKey);

      const answer = await panelAnswer(license.id, request!.text, 30);
      expect(await session.applyOfflineResponse("hello")).toMatchObject({
        ok: false,
        error: { code: "offline.response_refused", message: expect.stringContaining("(malformed)") },
      });
      const tampered = answer.response.replace(
        /\n([A-Za-z0-9_-])/,
        (_, c: string) => `\n${c === "A" ? "B" : "A"}`,
      );
      expect(await session.applyOfflineResponse(tampered)).toMatchObject({
        ok: false,
        error: { code: "offline.response_refused" },
      });
      expect(session.view().status).toBe("Expired");

      const before = calls;
      expect(await session.applyOfflineResponse(answer.response)).toEqual({ ok: true });
      const certificateEnd = Math.floor((server.clock() + 30 * DAY) / 1000) * 1000;
      expect(session.view()).toMatchObject({
        status: "Active",
        reason: "offline-activated",
        usable: true,
        nextTransitionAt: certificateEnd,
        nextStatus: "Expired",
        gating: { exportUnlocked: true, maxProjects: 5 },
        connection: { activated: true, heartbeating: false },
        offline: { certificateExpiresAt: certificateEnd, receipt: null },
      });
      expect(await server.activations(license.id)).toMatchObject([
        { id: answer.activationId, status: "active", mode: "offline", hwFingerprint: "machine-a" },
      ]);
      // It never asks the server: not to check in, not to deactivate, not after a restart online.
      expect(await session.heartbeat()).toMatchObject({ ok: false, error: { code: "offline.activated" } });
      expect(await session.deactivate()).toMatchObject({ ok: false, error: { code: "offline.activated" } });
      expect(await session.createOfflineRequest()).toMatchObject({
        ok: false,
        error: { code: "offline.activated" },
      });
      await session.setNetwork("online");
      expect(await session.restart()).toEqual({ ok: true });
      expect(await session.advanceClock(29 * DAY)).toEqual({ ok: true });
      expect(session.view()).toMatchObject({ status: "Active", reason: "offline-activated" });
      expect(calls).toBe(before);

      // Deactivated offline: locked, and the receipt is kept, across a restart of the app too.
      expect(await session.deactivateOffline()).toEqual({ ok: true });
      const { receipt } = session.view().offline;
      expect(receipt).toMatch(
        /^-----BEGIN LICENSE DEACTIVATION-----\n[\s\S]+-----END LICENSE DEACTIVATION-----\n$/,
      );
      expect(session.view()).toMatchObject({
        status: "Expired",
        usable: false,
        offline: { request: null, certificateExpiresAt: null },
      });
      expect(await session.deactivateOffline()).toMatchObject({
        ok: false,
        error: { code: "offline.not_activated" },
      });
      expect(calls).toBe(before);
      await session.close();
      const reopened = await server.session({ dataDir, publicKey: license.publicKey, fetch: offlineFetch });
      expect(reopened.view().offline.receipt).toBe(receipt);
      await reopened.close();

      // The vendor hands it in: the seat is free.
      const freed = await server.admin.api.activations.offlineDeactivate({ body: { receipt: receipt! } });
      expect(freed).toMatchObject({
        status: 200,
        body: { licenseId: license.id, activationId: answer.activationId },
      });
      expect(await server.activations(license.id)).toMatchObject([
        { status: "deactivated", mode: "offline" },
      ]);

      // Handed in: forgotten. "Activate this machine" then goes online with a new client.
      const online = await server.session({ dataDir, publicKey: license.publicKey });
      expect(await online.forgetOfflineReceipt()).toEqual({ ok: true });
      expect(online.view().offline.receipt).toBeNull();
      await expect(readFile(join(dataDir, "offline-receipt.txt"), "utf8")).rejects.toThrow();
      expect(online.view()).toMatchObject({ status: "Active", reason: "marker-valid" });
    },
  );

  it("refuses a response made for another computer or an older request; applies one from a file", async () => {
    const onDisk = await server.licenseFile({ config });
    const { license } = onDisk;
    const session = await server.session({ publicKey: license.publicKey });
    await session.setNetwork("offline");
    await session.installFile(onDisk.path);

    // Another computer's request, answered by the panel: its response is no good here.
    const other = await server.session({ hwFingerprint: "machine-b", publicKey: license.publicKey });
    await other.setNetwork("offline");
    await other.installFile(onDisk.path);
    await other.createOfflineRequest();
    const othersAnswer = await panelAnswer(license.id, other.view().offline.request!.text);
    expect(await session.createOfflineRequest()).toEqual({ ok: true });
    expect(await session.applyOfflineResponse(othersAnswer.response)).toMatchObject({
      ok: false,
      error: { code: "offline.response_refused", message: expect.stringContaining("another computer") },
    });

    // The answer to a request made before the newest one.
    const older = await panelAnswer(license.id, session.view().offline.request!.text);
    expect(await session.createOfflineRequest()).toEqual({ ok: true });
    expect(await session.applyOfflineResponse(older.response)).toMatchObject({
      ok: false,
      error: { code: "offline.response_refused", message: expect.stringContaining("older request") },
    });
    expect(session.view().status).toBe("Expired");

    // Copy and save hand the main process's own text to the clipboard and the file chosen.
    const copied: string[] = [];
    expect(await session.copyOfflineBlock("request", (text) => void copied.push(text))).toEqual({ ok: true });
    expect(copied).toEqual([session.view().offline.request!.text]);
    const dir = await scratch();
    const offered: string[] = [];
    expect(await session.saveOfflineBlock("request", async (name) => (offered.push(name), null))).toEqual({
      ok: true,
    });
    expect(await session.saveOfflineBlock("request", async (name) => join(dir, name))).toEqual({ ok: true });
    expect(offered).toEqual(["acme-editor-activation-request.txt"]);
    const saved = await readFile(join(dir, "acme-editor-activation-request.txt"), "utf8");
    expect(saved).toBe(copied[0]);
    expect(await session.copyOfflineBlock("receipt", () => undefined)).toMatchObject({
      ok: false,
      error: { code: "offline.no_block" },
    });

    // The newest request's answer, from the file the vendor sent.
    const answer = await panelAnswer(license.id, saved);
    await writeFile(join(dir, "response.txt"), `From: vendor\n\n${answer.response}`);
    expect(await session.applyOfflineResponseFile(join(dir, "nothing.txt"))).toMatchObject({
      ok: false,
      error: { code: "offline.file_unreadable" },
    });
    expect(await session.applyOfflineResponseFile(join(dir, "response.txt"))).toEqual({ ok: true });
    expect(session.view()).toMatchObject({ status: "Active", reason: "offline-activated" });

    // Deactivated offline, then back on a network: "Activate this machine" starts a client that activates.
    expect(await session.deactivateOffline()).toEqual({ ok: true });
    await session.setNetwork("online");
    expect(await session.heartbeat()).toEqual({ ok: true });
    expect(session.view()).toMatchObject({
      status: "Active",
      reason: "marker-valid",
      connection: { activated: true, heartbeating: true },
      offline: {
        certificateExpiresAt: null,
        receipt: expect.stringMatching(/^-----BEGIN LICENSE DEACTIVATION/),
      },
    });
  });
});
