import { readFileSync } from "node:fs";
import { type TestClient } from "@licensing/api/testing";
import { decodeRevocationList } from "@licensing/protocol";
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
 * Issue 24 §2–§3 in the admin app, in real Chromium against the real server: a template's revocation mode
 * and a license's override at issue, the revoke dialog saying what the mode does, the root key and the
 * retire and rotate dialogs, and the revocation list downloaded after an immediate revocation.
 */
const LONG = 120_000;
const RETIRE_TEXT =
  "Retiring a key ends its certificate: tokens and markers it signed after retirement are refused; what it signed before stays valid until their own expiry.";

let h: Harness;
let operator: TestClient;
let page: Page;
const state: { templateId?: string; licenseId?: string } = {};

beforeAll(async () => {
  h = await startHarness();
  operator = await h.app.client({ signIn: true });
  const company = await operator.api.companies.create({ body: { name: "Harbour Lab", slug: "harbour-lab" } });
  expect(company.status).toBe(201);
  page = await operatorPage(h);
}, 240_000);
afterEach(() => h?.expectNoCspViolations());
afterAll(() => h?.close());

const licenseOf = async (id: string) => (await operator.api.licenses.get({ params: { id } })).body;
const templateOf = async (id: string) => (await operator.api.templates.get({ params: { id } })).body;
const keysOf = async (id: string) => (await operator.api.templates.signingKeys.list({ params: { id } })).body;

describe.skipIf(!browserPath)("revocation and the key chain in the admin app", () => {
  it(
    "creates a template with immediate revocation, which round-trips through its settings",
    { timeout: LONG },
    async () => {
      await page.getByRole("link", { name: "Templates" }).click();
      await page.getByRole("button", { name: "New template" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Harbour Sonar");
      await dialog.getByRole("textbox", { name: "Product code", exact: true }).fill("SONAR");
      expect(await input(dialog, "Revocation").inputValue()).toBe("Graceful");
      await dialog
        .getByText(/^Graceful: the specification's rule 5: a revoked license keeps working/)
        .waitFor();
      await dialog
        .getByText(/^Immediate: programs that are online turn Revoked at their next call/)
        .waitFor();
      await choose(page, "Revocation", "Immediate");
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Create" }).click();
      await page.getByRole("heading", { name: /Harbour Sonar/ }).waitFor();
      await page.getByText("Immediate revocation", { exact: true }).waitFor();
      state.templateId = new URL(page.url()).pathname.split("/").at(-1);
      expect((await templateOf(state.templateId!)).revocation).toBe("immediate");

      await page.getByRole("tab", { name: "Settings" }).click();
      const revocation = input(page, "Revocation");
      expect(await revocation.inputValue()).toBe("Immediate");
      await choose(page, "Revocation", "Graceful");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Template saved").waitFor();
      expect((await templateOf(state.templateId!)).revocation).toBe("graceful");
      await page.reload();
      await page.getByRole("tab", { name: "Settings" }).click();
      await until(() => revocation.inputValue()).toBe("Graceful");
      await page.getByText("Graceful revocation", { exact: true }).waitFor();
    },
  );

  it(
    "issues a license that overrides the template's revocation, shown on its page and in its token",
    { timeout: LONG },
    async () => {
      await page.getByRole("link", { name: "Licenses" }).click();
      await page.getByRole("link", { name: "Issue a license" }).click();
      await choose(page, "Company", "Harbour Lab");
      await choose(page, "Template", /Harbour Sonar/);
      await until(() => input(page, "Revocation").inputValue()).toBe("The template's: Graceful");
      await choose(page, "Revocation", "Immediate");
      await page.getByText(/^Immediate: programs that are online turn Revoked/).waitFor();
      await expectAccessible(page);
      await page.getByRole("button", { name: "Issue the license" }).click();

      await page.getByRole("heading", { name: /SVC-/ }).waitFor();
      state.licenseId = new URL(page.url()).pathname.split("/").at(-1);
      expect((await licenseOf(state.licenseId!)).revocation).toBe("immediate");
      await field(page, "Revocation")
        .getByText(/^Immediate/)
        .waitFor();
      await field(page, "Revocation (rv)").getByText("immediate", { exact: true }).waitFor();
    },
  );

  it(
    "marks the root key, says what rotating and retiring do, and retires the root",
    { timeout: LONG },
    async () => {
      const dialog = page.getByRole("dialog");
      await page.goto(`/templates/${state.templateId}`);
      await page.getByRole("tab", { name: "Signing keys" }).click();
      const table = page.getByRole("table", { name: "signing keys" }).or(page.getByRole("table"));
      await table.getByText("Root: built into your programs").waitFor();

      // The root is the template's oldest key: a rotation comes later than the template's creation.
      h.app.clock.advance(60_000);
      await page.getByRole("button", { name: "Rotate the key" }).click();
      await dialog
        .getByText(
          /Programs already shipped keep working: the new key is certified by the root key built into them/,
        )
        .waitFor();
      await dialog.getByRole("button", { name: "Rotate the key" }).click();
      await page.getByText("New signing key: it signs new licenses from now on").waitFor();
      await page.getByRole("cell", { name: "Inactive" }).waitFor();
      const rows = page.getByRole("row");
      expect(
        await rows.filter({ hasText: "Root: built into your programs" }).getByText("Inactive").count(),
      ).toBe(1);
      expect(await page.getByText("Root: built into your programs").count()).toBe(1);
      await dismissNotifications(page);
      await screenshot(page.getByRole("tabpanel"), "signing-keys");

      await page.getByRole("button", { name: "Retire" }).click();
      await dialog.getByRole("heading", { name: "Retire the root key?" }).waitFor();
      expect(await dialog.getByText(RETIRE_TEXT, { exact: false }).count()).toBe(1);
      expect(await dialog.locator(".mantine-Text-root").first().textContent()).toContain(RETIRE_TEXT);
      await dialog.getByText(/This is the root key: it keeps certifying the other keys/).waitFor();
      await expectAccessible(page);
      await screenshot(dialog, "retire-root-key");
      await dialog.getByRole("button", { name: "Retire" }).click();
      await page.getByRole("cell", { name: "Retired" }).waitFor();
      const keys = await keysOf(state.templateId!);
      expect(keys.map((k) => k.status).sort()).toEqual(["Active", "Retired"]);
    },
  );

  it(
    "revokes the license after a dialog that says its revocation is immediate",
    { timeout: LONG },
    async () => {
      const dialog = page.getByRole("dialog");
      const { licenseKey } = await licenseOf(state.licenseId!);
      const client = await h.app.client();
      const activated = await client.api.client.activate({
        body: { licenseKey, hwFingerprint: "sonar-fp-1", machineName: "Survey vessel" },
      });
      expect(activated.status).toBe(200);
      await page.goto(`/licenses/${state.licenseId}`);
      await page.getByRole("cell", { name: "Survey vessel" }).waitFor();
      await page.getByRole("button", { name: "Revoke" }).click();
      await dialog
        .getByText(
          /Its revocation is immediate: an installed program that is online turns Revoked at its next heartbeat, from a signed revocation, and stays Revoked after a restart without network; a machine that never goes online learns of it only from the template's revocation list\. 1 machine is activated now\. This cannot be undone\.$/,
        )
        .waitFor();
      await dialog.getByRole("textbox", { name: "Reason", exact: true }).fill("Charged back");
      await expectAccessible(page);
      await screenshot(dialog, "revoke-immediate");
      await dialog.getByRole("button", { name: "Revoke" }).click();
      await page.getByText(/Charged back/).waitFor();
      expect((await licenseOf(state.licenseId!)).status).toBe("Revoked");
      const refused = await client.api.client.activate({
        body: { licenseKey, hwFingerprint: "sonar-fp-1", machineName: "Survey vessel" },
      });
      expect(refused.error).toMatchObject({ code: "license.revoked", revocation: expect.any(String) });
    },
  );

  it(
    "downloads the template's revocation list, which names the revoked license",
    { timeout: LONG },
    async () => {
      // A license of the same template revoked gracefully: rule 5 governs it, so the list leaves it out.
      const graceful = await operator.api.licenses.issue({
        body: {
          companyId: (await licenseOf(state.licenseId!)).companyId,
          templateId: state.templateId!,
          config: "{}",
        },
      });
      expect(graceful.status).toBe(201);
      await operator.api.licenses.revoke({ params: { id: graceful.body.id }, body: { reason: null } });

      await page.goto(`/templates/${state.templateId}`);
      await page.getByRole("tab", { name: "Revocation list" }).click();
      await page.getByText(/client\.applyRevocationList\(list\)/).waitFor();
      await page.getByRole("button", { name: "Get the revocation list" }).click();
      await page.getByRole("heading", { name: "1 revoked license" }).waitFor();
      await expectAccessible(page);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download SONAR-revocations.txt" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("SONAR-revocations.txt");
      const list = decodeRevocationList(readFileSync((await download.path())!, "utf8"));
      expect(list?.payload).toMatchObject({ tid: state.templateId, tpl: "SONAR", next: null });
      expect(list?.payload.revoked.map((r) => r.lid)).toEqual([state.licenseId]);
      // Signed by the rotated-in key, whose certificate the list carries for machines that never saw it.
      expect(list?.header.crt).toEqual(expect.any(String));

      // A day after the revocation: nothing revoked since.
      await page
        .getByLabel("Revoked since")
        .fill(new Date(h.app.clock.now().getTime() + 86_400_000).toISOString().slice(0, 10));
      await page.getByRole("button", { name: "Get the revocation list" }).click();
      await page.getByRole("heading", { name: "0 revoked licenses" }).waitFor();
    },
  );
});
