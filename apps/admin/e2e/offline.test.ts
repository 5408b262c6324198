import { createHash } from "node:crypto";
import {
  createLicensedCompany,
  issueLicense,
  newNonce,
  offlineReceipt,
  offlineRequest,
  type IssuedLicense,
  type TestClient,
} from "@licensing/api/testing";
import type { FingerprintComponent } from "@licensing/contracts";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  browserPath,
  dismissNotifications,
  expectAccessible,
  field,
  operatorPage,
  screenshot,
  startHarness,
  until,
  type Harness,
} from "./harness.ts";

/**
 * Issue 24 §1 in the admin app, in real Chromium against the real server: a machine without network's
 * activation request pasted on the license page, what will happen said before it is sent, the response to
 * carry back; its receipt pasted later frees the seat; tampered blocks are refused with nothing stored.
 * The blocks are made as the SDK makes them (`@licensing/api/testing`'s offlineRequest / offlineReceipt).
 */
const LONG = 120_000;
const DAY = 86_400_000;

let h: Harness;
let operator: TestClient;
let page: Page;
let license: IssuedLicense;
const lab = { fingerprint: "lab-bench-fp", machineName: "Lab bench", nonce: newNonce(), iat: 0 };
let labActivationId = "";

const components = (machine: string): FingerprintComponent[] =>
  ["machine-id", "disk-id", "mac-address"].map((kind) => ({
    kind,
    hash: createHash("sha256").update(`${machine}/${kind}`).digest("hex"),
  }));

const activations = async () =>
  (await operator.api.activations.list({ params: { id: license.id } })).body.map((a) => ({
    machineName: a.machineName,
    status: a.status,
    mode: a.mode,
  }));

/** The claims of an armored response (a JWS): what the machine will check. */
function responseClaims(armored: string) {
  const body = armored.replace(/-----(BEGIN|END) LICENSE ACTIVATION-----/g, "").replace(/\s+/g, "");
  const [header, claims] = body.split(".");
  return {
    header: JSON.parse(Buffer.from(header!, "base64url").toString()) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(claims!, "base64url").toString()) as Record<string, unknown>,
  };
}

/** The request with its machine name changed and its HMAC kept: what a man in the middle could send. */
function tampered(request: string, machineName: string) {
  const body = request.split("\n").slice(1, -2).join("");
  const [fields, mac] = body.split(".");
  const json = JSON.parse(Buffer.from(fields!, "base64url").toString()) as Record<string, unknown>;
  const changed = `${Buffer.from(JSON.stringify({ ...json, mn: machineName })).toString("base64url")}.${mac}`;
  const lines = changed.match(/.{1,64}/g)!;
  return `-----BEGIN LICENSE ACTIVATION REQUEST-----\n${lines.join("\n")}\n-----END LICENSE ACTIVATION REQUEST-----\n`;
}

const dialog = () => page.getByRole("dialog");
const outcome = () => dialog().getByRole("list", { name: "What will happen" });
const table = () => page.getByRole("table", { name: "Activations" });
const row = (name: string) => table().getByRole("row").filter({ hasText: name });
const paste = (label: string, text: string) =>
  dialog().getByRole("textbox", { name: label, exact: true }).fill(text);
/** The dialog alone, on a viewport tall enough that it does not scroll. */
async function screenshotDialog(name: string) {
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ ...viewport, height: 1600 });
  await screenshot(dialog(), name);
  await page.setViewportSize(viewport);
}

beforeAll(async () => {
  h = await startHarness();
  operator = await h.app.client({ signIn: true });
  const target = await createLicensedCompany(operator);
  lab.iat = Math.floor(h.app.clock.now().getTime() / 1000) - 3600;
  license = await issueLicense(operator, target, {
    config: JSON.stringify({ features: ["export"], limits: { maxSeats: 2 } }),
    expiresAt: new Date(h.app.clock.now().getTime() + 365 * DAY).toISOString(),
  });
  // A machine with network holds the first seat.
  const client = await h.app.client();
  const online = await client.api.client.activate({
    body: { licenseKey: license.licenseKey, hwFingerprint: "office-fp", machineName: "Office PC" },
  });
  expect(online.status).toBe(200);

  page = await operatorPage(h);
  await page.goto(`/licenses/${license.id}`);
  await row("Office PC").waitFor();
}, 240_000);
afterEach(() => h?.expectNoCspViolations());
afterAll(() => h?.close());

describe.skipIf(!browserPath)("machines without network in the admin app", () => {
  it(
    "pastes an activation request, says what will happen, and gives the response to carry back",
    { timeout: LONG },
    async () => {
      const request = offlineRequest(license, { ...lab, components: components("lab") });
      await page.getByRole("button", { name: "Offline activation…" }).click();
      await paste("Activation request", `Hello, here is the request from the lab:\n\n${request}\nThanks`);
      const preview = dialog().getByRole("group", { name: "The request" });
      await field(preview, "Machine").getByText("Lab bench").waitFor();
      await field(preview, "Fingerprint").getByText("lab-bench-fp").waitFor();
      await field(preview, "Components").getByText("machine-id, disk-id, mac-address").waitFor();
      await outcome().getByText("It takes seat 2 of 2.").waitFor();
      await outcome()
        .getByText(/^The response activates it until .+, when the license expires, with no grace period/)
        .waitFor();
      await dialog().getByRole("textbox", { name: "Valid for (days)" }).fill("30");
      const end = new Date(h.app.clock.now().getTime() + 30 * DAY);
      await outcome()
        .getByText(/^The response activates it until \d+ \w+ \d{4}, \d\d:\d\d, with no grace period/)
        .waitFor();
      await expectAccessible(page);
      await screenshotDialog("license-offline-activation");

      await dialog().getByRole("button", { name: "Activate the machine" }).click();
      await dialog().getByText("Activated", { exact: true }).waitFor();
      const response = await dialog()
        .getByRole("textbox", { name: "Activation response", exact: true })
        .inputValue();
      expect(response).toMatch(
        /^-----BEGIN LICENSE ACTIVATION-----\n[\s\S]+\n-----END LICENSE ACTIVATION-----\n$/,
      );
      const { header, claims } = responseClaims(response);
      expect(header).toMatchObject({ alg: "EdDSA", typ: "license-activation+jwt" });
      expect(claims).toMatchObject({ lid: license.id, fp: lab.fingerprint, nonce: lab.nonce });
      // now + 30 days, to the second (the server's clock is the harness's).
      expect(claims.exp).toBe(Math.floor(end.getTime() / 1000));
      labActivationId = claims.aid as string;
      await dialog().getByText(`activation ${labActivationId}`, { exact: false }).waitFor();

      const download = page.waitForEvent("download");
      await dialog().getByRole("button", { name: "Download the response" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`${license.licenseKey}-activation.txt`);
      expect(await new Response((await file.createReadStream()) as unknown as ReadableStream).text()).toBe(
        response,
      );
      await expectAccessible(page);
      await dialog().getByRole("button", { name: "Done" }).click();

      // The list marks the offline machine; it sends no heartbeat.
      await row("Lab bench").getByText("offline", { exact: true }).waitFor();
      await row("Lab bench").getByRole("cell", { name: "none: offline" }).waitFor();
      expect(await row("Office PC").getByText("offline", { exact: true }).count()).toBe(0);
      expect(await activations()).toEqual(
        expect.arrayContaining([
          { machineName: "Lab bench", status: "active", mode: "offline" },
          { machineName: "Office PC", status: "active", mode: "online" },
        ]),
      );
      // Resetting it frees the seat here only: the dialog says the machine is never told.
      await row("Lab bench").getByRole("button", { name: "Reset" }).click();
      await dialog()
        .getByText(/^Its seat is freed here, but the machine is never told/)
        .waitFor();
      await dialog().getByRole("button", { name: "Cancel" }).click();
      await expectAccessible(page);
      await dismissNotifications(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, "license-offline");
    },
  );

  it(
    "refuses a tampered request, another license's and one over the seat limit, saying why; nothing is stored",
    { timeout: LONG },
    async () => {
      const before = await activations();
      await page.getByRole("button", { name: "Offline activation…" }).click();

      // The machine's name changed on the way: the HMAC no longer matches.
      const genuine = offlineRequest(license, { fingerprint: "shipyard-fp", machineName: "Shipyard PC" });
      await paste("Activation request", tampered(genuine, "Somebody else's PC"));
      await field(dialog(), "Machine").getByText("Somebody else's PC").waitFor();
      await dialog().getByRole("button", { name: "Activate the machine" }).click();
      const alert = dialog().getByRole("alert");
      await alert.getByText("Not activated").waitFor();
      expect(await alert.textContent()).toContain(
        "The request's HMAC does not verify with this license's key: it was changed, or made with another key (offline.request_invalid). Nothing was stored.",
      );
      await expectAccessible(page);

      // A request of another license: the preview says so, and so does the server.
      const other = await issueLicense(operator, await createLicensedCompany(operator));
      await paste("Activation request", offlineRequest(other, { machineName: "Shipyard PC" }));
      expect(await dialog().getByRole("alert").count()).toBe(0);
      await outcome().getByText(`It was made for another license (${other.id})`, { exact: false }).waitFor();
      await dialog().getByRole("button", { name: "Activate the machine" }).click();
      await dialog()
        .getByRole("alert")
        .getByText(`The request is for license ${other.id}, not this one`, { exact: false })
        .waitFor();

      // The license is full (Office PC and Lab bench): the preview and the server say so.
      await paste("Activation request", genuine);
      await outcome()
        .getByText(/^All 2 seats are in use: the server refuses it/)
        .waitFor();
      await dialog().getByRole("button", { name: "Activate the machine" }).click();
      expect(await dialog().getByRole("alert").textContent()).toContain(
        "All 2 seats of the license are in use (activation.seat_limit_reached). Free a seat first",
      );

      // Text that holds no request is not sent at all.
      await paste(
        "Activation request",
        offlineReceipt(license, labActivationId, lab.nonce, { iat: lab.iat + 86_400 }),
      );
      await dialog().getByText("This is a deactivation receipt, not an activation request.").waitFor();
      expect(await dialog().getByRole("button", { name: "Activate the machine" }).isDisabled()).toBe(true);
      await dialog().getByRole("button", { name: "Cancel" }).click();

      expect(await activations()).toEqual(before);
      expect(await table().getByRole("row").count()).toBe(before.length + 1);
    },
  );

  it(
    "hands in the machine's receipt: names the machine first, then frees its seat; a forged one frees nothing",
    { timeout: LONG },
    async () => {
      await page.getByRole("button", { name: "Offline deactivation…" }).click();
      await paste(
        "Deactivation receipt",
        offlineReceipt(license, labActivationId, lab.nonce, {
          key: "SVC-AAAAA-AAAAA-AAAAA-AAAAA-AAAAA",
          iat: lab.iat + 86_400,
        }),
      );
      await outcome()
        .getByText(/^It frees the seat of Lab bench, activated without network on /)
        .waitFor();
      await dialog().getByRole("button", { name: "Free the seat" }).click();
      const alert = dialog().getByRole("alert");
      await alert.getByText("No seat was freed", { exact: false }).waitFor();
      expect(await alert.textContent()).toContain(
        "The receipt's HMAC does not verify with the license's key: it was changed, or made with another key (offline.receipt_invalid).",
      );
      expect((await activations()).find((a) => a.machineName === "Lab bench")?.status).toBe("active");

      // The genuine receipt, uploaded as the file the machine saved.
      await dialog()
        .locator('input[type="file"]')
        .setInputFiles({
          name: "deactivation-receipt.txt",
          mimeType: "text/plain",
          buffer: Buffer.from(offlineReceipt(license, labActivationId, lab.nonce, { iat: lab.iat + 86_400 })),
        });
      await outcome()
        .getByText(/^It frees the seat of Lab bench/)
        .waitFor();
      expect(await dialog().getByRole("alert").count()).toBe(0);
      await expectAccessible(page);
      await screenshotDialog("license-offline-deactivation");
      await dialog().getByRole("button", { name: "Free the seat" }).click();
      await dialog().getByText("Seat freed").waitFor();
      expect(await dialog().getByRole("status").textContent()).toContain(
        `Lab bench no longer holds a seat (activation ${labActivationId}`,
      );
      await dialog().getByRole("button", { name: "Done" }).click();

      await until(() => row("Lab bench").getByRole("cell", { name: "deactivated" }).count()).toBe(1);
      expect((await activations()).find((a) => a.machineName === "Lab bench")).toEqual({
        machineName: "Lab bench",
        status: "deactivated",
        mode: "offline",
      });
      // Handing it in again: the preview says the seat is already free.
      await page.getByRole("button", { name: "Offline deactivation…" }).click();
      await paste(
        "Deactivation receipt",
        offlineReceipt(license, labActivationId, lab.nonce, { iat: lab.iat + 86_400 }),
      );
      await outcome()
        .getByText(/^Lab bench's seat is already free/)
        .waitFor();
      await dialog().getByRole("button", { name: "Cancel" }).click();
    },
  );
});
