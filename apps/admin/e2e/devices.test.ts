import { createHash } from "node:crypto";
import { type TestClient } from "@licensing/api/testing";
import type { FingerprintComponent } from "@licensing/contracts";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  browserPath,
  choose,
  dismissNotifications,
  expectAccessible,
  field,
  input,
  operatorPage,
  screenshot,
  startHarness,
  until,
  type Harness,
} from "./harness.ts";

/**
 * Issue 22 in the admin app, in real Chromium against the real server: a template's fingerprint matching
 * and device budget, the issue form overriding them, and the license page showing the machines' component
 * kinds, a heal made by the real client API, and the budget with its reset.
 */
const LONG = 120_000;

let h: Harness;
let operator: TestClient;
let client: TestClient;
let page: Page;
const state: { templateId?: string; licenseId?: string; licenseKey?: string } = {};

/** The seven kinds the SDKs read, each hashed as a client would (the server sees only the hashes). */
const KINDS = ["machine-id", "cpu-model", "memory-size", "disk-id", "mac-address", "host-name", "os-family"];
const machine = (name: string, changed: string[] = []): FingerprintComponent[] =>
  KINDS.map((kind) => ({
    kind,
    hash: createHash("sha256")
      .update(`${name}/${kind}${changed.includes(kind) ? "/replaced" : ""}`)
      .digest("hex"),
  }));

beforeAll(async () => {
  h = await startHarness();
  operator = await h.app.client({ signIn: true });
  client = await h.app.client();
  const company = await operator.api.companies.create({
    body: { name: "Studio North", slug: "studio-north" },
  });
  expect(company.status).toBe(201);
  page = await operatorPage(h);
}, 240_000);
afterEach(() => h?.expectNoCspViolations());
afterAll(() => h?.close());

const licenseOf = async (id: string) => (await operator.api.licenses.get({ params: { id } })).body;
const templateOf = async (id: string) => (await operator.api.templates.get({ params: { id } })).body;
const activate = (hwFingerprint: string, machineName: string, components: FingerprintComponent[]) =>
  client.api.client.activate({
    body: { licenseKey: state.licenseKey!, hwFingerprint, machineName, components },
  });

describe.skipIf(!browserPath)("fingerprint matching and the device budget in the admin app", () => {
  it(
    "creates a template with its matching and device budget, which round-trip through its settings",
    { timeout: LONG },
    async () => {
      await page.getByRole("link", { name: "Templates" }).click();
      await page.getByRole("button", { name: "New template" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Studio Suite");
      await dialog.getByRole("textbox", { name: "Product code", exact: true }).fill("STUDIO");
      // The defaults: fuzzy, no limit, 30 days.
      expect(await input(dialog, "Fingerprint matching").inputValue()).toMatch(/^Fuzzy/);
      expect(await input(dialog, "New devices per window").inputValue()).toBe("");
      expect(await input(dialog, "Device window (days)").inputValue()).toBe("30");
      await choose(page, "Fingerprint matching", /^Strict/);
      await input(dialog, "New devices per window").fill("5");
      await input(dialog, "Device window (days)").fill("14");
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Create" }).click();
      await page.getByRole("heading", { name: /Studio Suite/ }).waitFor();
      state.templateId = new URL(page.url()).pathname.split("/").at(-1);
      expect(await templateOf(state.templateId!)).toMatchObject({
        fingerprintMatch: "strict",
        maxNewDevicesPerWindow: 5,
        newDeviceWindowDays: 14,
      });

      // The settings show what was stored; an empty limit is saved as no limit.
      await page.getByRole("tab", { name: "Settings" }).click();
      const matching = input(page, "Fingerprint matching");
      const limit = input(page, "New devices per window");
      const window = input(page, "Device window (days)");
      expect(await matching.inputValue()).toMatch(/^Strict/);
      expect(await limit.inputValue()).toBe("5");
      expect(await window.inputValue()).toBe("14");
      await choose(page, "Fingerprint matching", /^Loose/);
      await limit.fill("");
      await window.fill("60");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Template saved").waitFor();
      expect(await templateOf(state.templateId!)).toMatchObject({
        fingerprintMatch: "loose",
        maxNewDevicesPerWindow: null,
        newDeviceWindowDays: 60,
      });
      await page.reload();
      await page.getByRole("tab", { name: "Settings" }).click();
      await until(() => matching.inputValue()).toMatch(/^Loose/);
      expect(await limit.inputValue()).toBe("");
      expect(await window.inputValue()).toBe("60");

      await page.getByRole("link", { name: "Templates" }).click();
      const row = page.getByRole("row").filter({ hasText: "Studio Suite" });
      await row.getByRole("cell", { name: "loose" }).waitFor();
      await row.getByRole("cell", { name: "No limit" }).waitFor();
    },
  );

  it("issues a license whose form overrides the template's device terms", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "Licenses" }).click();
    await page.getByRole("link", { name: "Issue a license" }).click();
    await choose(page, "Company", "Studio North");
    await choose(page, "Template", /Studio Suite/);
    // The template's terms are the default, and say what they are.
    await until(() => input(page, "Fingerprint matching").inputValue()).toBe(
      "The template's: Loose: 40% of the components still match",
    );
    expect(await input(page, "New devices").inputValue()).toBe("The template's: No limit");
    await choose(page, "Fingerprint matching", /^Fuzzy/);
    await choose(page, "New devices", "A limit of its own");
    await input(page, "New devices per window").fill("2");
    await input(page, "Device window (days)").fill("30");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Issue the license" }).click();

    await page.getByRole("heading", { name: /SVC-/ }).waitFor();
    state.licenseId = new URL(page.url()).pathname.split("/").at(-1);
    state.licenseKey = (await page.getByRole("heading", { name: /SVC-/ }).locator("code").textContent())!;
    const license = await licenseOf(state.licenseId!);
    expect(license.fingerprintMatch).toBe("fuzzy");
    expect(license.deviceBudget).toEqual({ used: 0, max: 2, windowDays: 30, resetsAt: null });
    await field(page, "Fingerprint matching")
      .getByText(/^Fuzzy/)
      .waitFor();
    await field(page, "Fingerprint matching (fm)").getByText("fuzzy").waitFor();
    await field(page, "New devices, last 30 days").getByText("0 of 2").waitFor();
    await field(page, "Limit").getByText("2 new devices per 30 days").waitFor();
    expect(await page.getByRole("button", { name: "Reset the device budget" }).isDisabled()).toBe(true);
  });

  it(
    "shows each machine's component kinds, a heal made through the client API, and the budget filling up",
    { timeout: LONG },
    async () => {
      const workstation = await activate("ws-fp-1", "Design workstation", machine("ws"));
      expect(workstation.status).toBe(200);
      h.app.clock.advance(60 * 60_000);
      // A new disk and network card: 5 of its 7 components still match, above fuzzy's 0.6.
      const healed = await activate(
        "ws-fp-2",
        "Design workstation",
        machine("ws", ["disk-id", "mac-address"]),
      );
      expect(healed.body).toMatchObject({ activationId: workstation.body.activationId, healed: true });
      h.app.clock.advance(60 * 60_000);
      expect((await activate("render-fp-1", "Render node", machine("render"))).status).toBe(200);
      // A third new machine: over the budget of 2.
      const refused = await activate("laptop-fp-1", "Field laptop", machine("laptop"));
      expect(refused.status).toBe(429);
      expect(refused.error?.code).toBe("activation.device_budget_exhausted");

      await page.reload();
      const rows = page.getByRole("table", { name: "Activations" }).getByRole("row");
      const ws = rows.filter({ hasText: "Design workstation" });
      await ws.getByRole("cell", { name: "ws-fp-2" }).waitFor();
      expect(await ws.getByRole("group", { name: "Components" }).textContent()).toBe(KINDS.join(""));
      expect(await ws.getByText("new device").count()).toBe(1);
      const heals = page.getByRole("group", { name: "Heals of Design workstation" });
      await heals.getByText("Healed once").waitFor();
      expect(await heals.getByRole("listitem").allTextContents()).toEqual([
        expect.stringMatching(/: 71% of its components matched; changed: disk-id, mac-address$/),
      ]);
      expect(await page.getByRole("group", { name: "Heals of Render node" }).count()).toBe(0);
      expect(await rows.filter({ hasText: "Field laptop" }).count()).toBe(0);

      await field(page, "New devices, last 30 days").getByText("2 of 2").waitFor();
      await page.getByText(/^Full: a new machine is refused/).waitFor();
      await page.getByRole("progressbar", { name: "2 of 2 new devices used" }).waitFor();
      const license = await licenseOf(state.licenseId!);
      expect(license.deviceBudget).toMatchObject({ used: 2, max: 2, windowDays: 30 });
      await field(page, "Oldest counted device leaves the window").getByText(/\d{4}/).waitFor();
      await expectAccessible(page);
      await dismissNotifications(page);
      await screenshot(page, "license-devices");
    },
  );

  it(
    "resets the device budget after a confirmation that says what happens, and a new machine activates",
    { timeout: LONG },
    async () => {
      const dialog = page.getByRole("dialog");
      await page.getByRole("button", { name: "Reset the device budget" }).click();
      await dialog
        .getByText(
          /^The 2 new devices counted in the last 30 days stop counting\. New machines may activate again at once, up to 2 new devices in the next 30 days\. No machine is deactivated and no seat is freed\./,
        )
        .waitFor();
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      expect((await licenseOf(state.licenseId!)).deviceBudget.used).toBe(2);

      await page.getByRole("button", { name: "Reset the device budget" }).click();
      await dialog.getByRole("button", { name: "Reset the device budget" }).click();
      await page.getByText("Device budget reset: no new device counts now").waitFor();
      expect(await dialog.count()).toBe(0);
      await field(page, "New devices, last 30 days").getByText("0 of 2").waitFor();
      expect((await licenseOf(state.licenseId!)).deviceBudget).toEqual({
        used: 0,
        max: 2,
        windowDays: 30,
        resetsAt: null,
      });
      // The machines keep their activations; the refused one now gets in.
      const live = page
        .getByRole("table", { name: "Activations" })
        .getByRole("cell", { name: "active", exact: true });
      expect(await live.count()).toBe(2);
      h.app.clock.advance(60_000);
      expect((await activate("laptop-fp-1", "Field laptop", machine("laptop"))).status).toBe(200);
      await page.reload();
      await page.getByRole("cell", { name: "Field laptop" }).waitFor();
      await field(page, "New devices, last 30 days").getByText("1 of 2").waitFor();
    },
  );

  it(
    "offers the new events to a webhook endpoint, from the server's catalogue",
    { timeout: LONG },
    async () => {
      await page.getByRole("link", { name: "Webhooks" }).click();
      await page.getByRole("button", { name: "New endpoint" }).click();
      await input(page.getByRole("dialog"), "Events").click();
      for (const event of ["license.activation_healed", "license.device_budget_exhausted"])
        await page.getByRole("option", { name: event, exact: true }).waitFor();
      await page.keyboard.press("Escape");
    },
  );
});
