import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { signedPost, type TestClient } from "@licensing/api/testing";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  browserPath,
  choose,
  DESKTOP,
  expectAccessible,
  MOBILE,
  screenshot,
  startHarness,
  totp,
  until,
  type Harness,
} from "./harness.ts";

/**
 * One operator's session through the admin app, in real Chromium against the real server: each step
 * builds on the one before (the tree, then its users, templates and licenses), as a person would.
 */
const OPERATOR = { email: "root@example.com", password: "operator-password-1" };
const LONG = 120_000;

let h: Harness;
let operator: TestClient;
let secret: string;
let ops: BrowserContext;
let page: Page;
const state: {
  tokenSecret?: string;
  licenseId?: string;
  licenseKey?: string;
  viewerPassword?: string;
  bulkLicenseId?: string;
} = {};

beforeAll(async () => {
  h = await startHarness();
  // The operator enrols TOTP over the API; the sign-in below then needs the 2FA step.
  operator = await h.app.client({ signIn: true });
  secret = (await operator.api.auth.twoFactor.enroll()).body.secret;
  const enabled = await operator.api.auth.twoFactor.enable({ body: { code: await totp(h.app, secret) } });
  expect(enabled.status).toBe(200);
  ops = await h.context();
  page = await ops.newPage();
}, 240_000);
afterAll(() => h?.close());
afterEach(() => h?.expectNoCspViolations());

const licenseOf = async (id: string) => (await operator.api.licenses.get({ params: { id } })).body;
const treeItem = (name: string) => page.getByRole("treeitem", { name, exact: true });

describe.skipIf(!browserPath)("the admin app", () => {
  it(
    "sends a visitor to sign-in, then signs in with password and the 2FA code",
    { timeout: LONG },
    async () => {
      await page.goto("/companies");
      await until(() => new URL(page.url()).pathname).toBe("/sign-in");
      await expectAccessible(page);
      await screenshot(page, "sign-in");

      await page.getByRole("textbox", { name: "Email", exact: true }).fill(OPERATOR.email);
      await page.getByRole("textbox", { name: "Password", exact: true }).fill("wrong-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await until(() => page.getByRole("alert").textContent()).toMatch(/invalid|incorrect|wrong/i);

      await page.getByRole("textbox", { name: "Password", exact: true }).fill(OPERATOR.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("textbox", { name: "Authentication code", exact: true }).fill("000000");
      await page.getByRole("button", { name: "Verify" }).click();
      await expect
        .poll(() => page.getByRole("textbox", { name: "Authentication code" }).getAttribute("aria-invalid"))
        .toBe("true");
      await page
        .getByRole("textbox", { name: "Authentication code", exact: true })
        .fill(await totp(h.app, secret));
      await page.getByRole("button", { name: "Verify" }).click();
      // Back where the visitor was going.
      await page.getByRole("heading", { name: "Companies" }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/companies");
    },
  );

  it(
    "builds a company tree: roots, children, a move to another parent, collapse and archive",
    { timeout: LONG },
    async () => {
      await page.getByText("No company yet.").waitFor();
      const create = async (name: string, parent?: string) => {
        if (parent) {
          await page.getByRole("button", { name: `Actions for ${parent}` }).click();
          await page.getByRole("menuitem", { name: "Add a child company" }).click();
        } else {
          await page.getByRole("button", { name: "New root company" }).click();
        }
        const dialog = page.getByRole("dialog");
        await dialog.getByRole("textbox", { name: "Name", exact: true }).fill(name);
        await dialog.getByRole("button", { name: "Create" }).click();
        await treeItem(name).waitFor();
      };
      await create("Acme Group");
      await create("Acme Europe", "Acme Group");
      await create("Acme France", "Acme Europe");
      await create("Globex");

      // A slug the server refuses: its message shows in the dialog.
      await page.getByRole("button", { name: "New root company" }).click();
      await page.getByRole("dialog").getByRole("textbox", { name: "Name", exact: true }).fill("Bad");
      await page.getByRole("dialog").getByRole("textbox", { name: "Slug", exact: true }).fill("Not A Slug");
      await page.getByRole("dialog").getByRole("button", { name: "Create" }).click();
      await until(() => page.getByRole("dialog").getByRole("alert").textContent()).toMatch(/slug/i);
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

      expect(await treeItem("Acme Europe").getByRole("treeitem", { name: "Acme France" }).count()).toBe(1);
      await page.getByRole("button", { name: "Actions for Acme France" }).click();
      await page.getByRole("menuitem", { name: "Move under another parent" }).click();
      await choose(page, "New parent", "Globex");
      await page.getByRole("dialog").getByRole("button", { name: "Move" }).click();
      await treeItem("Globex").getByRole("treeitem", { name: "Acme France" }).waitFor();
      expect(await treeItem("Acme Europe").getByRole("treeitem", { name: "Acme France" }).count()).toBe(0);

      await page.getByRole("button", { name: "Collapse Globex" }).click();
      expect(await page.getByRole("treeitem", { name: "Acme France" }).count()).toBe(0);
      await page.getByRole("button", { name: "Expand Globex" }).click();
      await treeItem("Acme France").waitFor();

      await page.getByRole("button", { name: "Actions for Acme France" }).click();
      await page.getByRole("menuitem", { name: "Archive" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Archive" }).click();
      await treeItem("Acme France").getByText("Archived").waitFor();

      const rest = (await operator.api.companies.list()).body;
      const byName = Object.fromEntries(rest.map((c) => [c.name, c]));
      expect(byName["Acme France"]).toMatchObject({ parentId: byName.Globex!.id, status: "Archived" });
      expect(byName["Acme Europe"]!.parentId).toBe(byName["Acme Group"]!.id);
      await expectAccessible(page);
      await screenshot(page, "companies");
    },
  );

  it("invites a viewer who accepts from the mail", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "Acme Group" }).click();
    await page.getByRole("heading", { name: "Acme Group" }).waitFor();
    await page.getByText("No user in this company yet.").waitFor();
    await page.getByRole("button", { name: "Invite a user" }).click();
    await page
      .getByRole("dialog")
      .getByRole("textbox", { name: "Email", exact: true })
      .fill("viewer@acme.example");
    await choose(page, "Role", /^Viewer/);
    await page.getByRole("dialog").getByRole("button", { name: "Send the invitation" }).click();
    await page.getByRole("cell", { name: "viewer@acme.example" }).waitFor();
    await page.getByRole("cell", { name: "pending" }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "company");

    const mail = await h.app.smtp.waitFor("viewer@acme.example");
    const link = /https?:\/\/\S+\/accept-invite\?token=\S+/.exec(mail.text)![0];
    const viewer = await (await h.context()).newPage();
    await viewer.goto(link);
    await viewer.getByText("viewer@acme.example").waitFor();
    await viewer.getByRole("textbox", { name: "New password", exact: true }).fill("viewer-password-1");
    await viewer.getByRole("textbox", { name: "Repeat the password", exact: true }).fill("viewer-password-1");
    await expectAccessible(viewer);
    await screenshot(viewer, "accept-invite");
    await viewer.getByRole("button", { name: "Accept and sign in" }).click();
    await viewer.getByRole("heading", { name: "Licenses" }).waitFor();
    expect(await viewer.getByText("viewer", { exact: true }).first().isVisible()).toBe(true);
    await viewer.context().close();
    state.viewerPassword = "viewer-password-1";

    await page.reload();
    await page.getByRole("cell", { name: "active" }).waitFor();
  });

  it(
    "creates a template and a version whose JSON errors are shown at the field",
    { timeout: LONG },
    async () => {
      await page.getByRole("link", { name: "Templates" }).click();
      await page.getByText("No active template.").waitFor();
      await page.getByRole("button", { name: "New template" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Acme Editor");
      await dialog.getByRole("textbox", { name: "Product code", exact: true }).fill("EDITOR");
      await dialog.getByRole("button", { name: "Create" }).click();
      await page.getByRole("heading", { name: /Acme Editor/ }).waitFor();

      await page.getByRole("button", { name: "New version" }).click();
      const schema = page.getByRole("textbox", { name: "Config schema (JSON Schema)", exact: true });
      await schema.fill('{"type": "object",\n  "properties": }');
      await until(() => page.getByText(/line 2, column \d+/).count()).toBe(1);
      await schema.fill(
        JSON.stringify({
          type: "object",
          properties: {
            features: { type: "array", items: { type: "string", enum: ["export", "sync", "print"] } },
            limits: {
              type: "object",
              properties: { maxSeats: { type: "integer", minimum: 1, maximum: 100 } },
            },
            edition: { type: "string", enum: ["standard", "pro"] },
          },
        }),
      );
      await page
        .getByRole("textbox", { name: "Defaults (JSON object)", exact: true })
        .fill('{"edition": "standard", "limits": {"maxSeats": 1}}');
      await page.getByRole("textbox", { name: "Changelog", exact: true }).fill("First version");
      await page.getByRole("button", { name: "Create the version" }).click();
      await page.getByRole("button", { name: /^Version 1/ }).waitFor();
      await page.getByText("current").waitFor();
      await expectAccessible(page);
      await screenshot(page, "template");

      // The version's config as TypeScript, for LicenseClient<Config> (decision 0043).
      await page.getByRole("button", { name: /^Version 1/ }).click();
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download TypeScript types" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("editor-config.ts");
      const source = await readFile((await file.path())!, "utf8");
      expect(source).toContain("export interface EditorConfig {");
      expect(source).toContain('export type EditorFeature = "export" | "sync" | "print";');
      await page.getByRole("button", { name: /^Version 1/ }).click();
    },
  );

  it("issues a license from the form generated from the schema", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "Licenses" }).click();
    await page.getByText("No license matches these filters.").waitFor();
    await page.getByRole("link", { name: "Issue a license" }).click();
    await choose(page, "Company", "Acme Europe");
    await choose(page, "Template", /Acme Editor/);
    await page.getByText("Configuration (version 1)").waitFor();
    // The version's defaults fill the form.
    expect(await page.getByRole("textbox", { name: "Max Seats" }).inputValue()).toBe("1");
    await choose(page, "Features", "export");
    await choose(page, "Features", "sync");
    await page.getByRole("textbox", { name: "Max Seats" }).fill("3");
    await choose(page, "Edition", "pro");
    await expectAccessible(page);
    await screenshot(page, "issue-license");
    await page.getByRole("button", { name: "Issue the license" }).click();

    await page.getByRole("heading", { name: /SVC-/ }).waitFor();
    state.licenseId = new URL(page.url()).pathname.split("/").at(-1);
    state.licenseKey = (await page.getByRole("heading", { name: /SVC-/ }).locator("code").textContent())!;
    await page.getByText("export, sync").waitFor();
    const license = await licenseOf(state.licenseId!);
    expect(JSON.parse(license.config)).toEqual({
      edition: "pro",
      features: ["export", "sync"],
      limits: { maxSeats: 3 },
    });
  });

  it("shows a client's activation and heartbeats, and downloads the .lic", { timeout: LONG }, async () => {
    await page.getByText("No machine has activated this license yet.").waitFor();
    const client = await h.app.client();
    const activated = await client.api.client.activate({
      body: { licenseKey: state.licenseKey!, hwFingerprint: "laptop-fp-1", machineName: "Alice's laptop" },
    });
    expect(activated.status).toBe(200);
    const heartbeat = await signedPost(client, h.app.clock.now(), "/api/v1/client/heartbeat", {
      licenseKey: state.licenseKey!,
      activationId: activated.body.activationId,
    });
    expect(heartbeat.status).toBe(200);

    await page.reload();
    await page.getByRole("cell", { name: "Alice's laptop" }).waitFor();
    await page.getByText("1 heartbeat(s)", { exact: false }).waitFor();
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download .lic" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${state.licenseKey}.lic`);
    await expectAccessible(page);
    await screenshot(page, "license");
  });

  it("rebinds and revokes, each dialog saying what will happen", { timeout: LONG }, async () => {
    await page.getByRole("button", { name: "Rebind" }).click();
    await page
      .getByRole("dialog")
      .getByText(/needs the new license file/)
      .waitFor();
    await page
      .getByRole("dialog")
      .getByRole("textbox", { name: "New hardware fingerprint", exact: true })
      .fill("desktop-fp-2");
    await page.getByRole("dialog").getByRole("button", { name: "Rebind" }).click();
    await page.getByText("fixed (desktop-fp-2)").waitFor();

    await page.getByRole("button", { name: "Revoke" }).click();
    await page
      .getByRole("dialog")
      .getByText(/cannot be undone/)
      .waitFor();
    await page
      .getByRole("dialog")
      .getByRole("textbox", { name: "Reason", exact: true })
      .fill("Contract ended");
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await page.getByText(/Contract ended/).waitFor();
    expect(await page.getByRole("button", { name: "Revoke" }).count()).toBe(0);
    const license = await licenseOf(state.licenseId!);
    expect(license).toMatchObject({ status: "Revoked", hwFingerprint: "desktop-fp-2", currentVersion: 2 });
  });

  it("searches licenses by every filter, with the filters in the URL", { timeout: LONG }, async () => {
    await page.goto("/licenses?status=Active");
    await page.getByText("No license matches these filters.").waitFor();
    await page.goBack();
    await page.goto("/licenses?status=Revoked");
    await page.getByRole("link", { name: state.licenseKey! }).waitFor();
    await page.getByText("1 licenses").waitFor();
    await page.getByRole("textbox", { name: "Search", exact: true }).fill(state.licenseKey!.slice(0, 9));
    await expect
      .poll(() => new URL(page.url()).searchParams.get("search"))
      .toBe(state.licenseKey!.slice(0, 9));
    await page.getByRole("link", { name: state.licenseKey! }).waitFor();
    await expectAccessible(page);
    await screenshot(page, "licenses");
  });

  it("exports the audit log, filtered, as CSV", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    await page.getByRole("textbox", { name: "Action", exact: true }).fill("license.revoked");
    await page.getByRole("cell", { name: "license.revoked" }).waitFor();
    await until(() => page.getByRole("cell", { name: "company.created" }).count()).toBe(0);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    const file = await download;
    const csv = await new Response((await file.createReadStream()) as unknown as ReadableStream).text();
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toBe("timestamp,actor,action,entityType,entityId,meta");
    expect(lines.slice(1).map((l) => l.split(",")[2])).toEqual(["license.revoked"]);
    await expectAccessible(page);
    await screenshot(page, "audit");
  });

  it("creates an API token whose secret is shown once and works", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "API tokens" }).click();
    await page.getByText("No API token yet.").waitFor();
    await page.getByRole("button", { name: "New token" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("CI pipeline");
    await choose(page, "Company", "Acme Group");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.getByText("Copy the token now").waitFor();
    const secret = (await page.getByRole("status").locator("code").textContent())!;
    expect(secret).toMatch(/^svc_pat_/);
    state.tokenSecret = secret;
    await page.getByRole("cell", { name: "CI pipeline" }).waitFor();
    const me = await fetch(`${h.app.url}/api/v1/panel/companies`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(me.status).toBe(200);
    await expectAccessible(page);
    await screenshot(page, "tokens");
    await page.reload();
    await page.getByRole("cell", { name: "CI pipeline" }).waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
  });

  it("shows a viewer no write action, and the server refuses one anyway", { timeout: LONG }, async () => {
    const viewer = await (await h.context()).newPage();
    await viewer.goto("/sign-in");
    await viewer.getByRole("textbox", { name: "Email", exact: true }).fill("viewer@acme.example");
    await viewer.getByRole("textbox", { name: "Password", exact: true }).fill(state.viewerPassword!);
    await viewer.getByRole("button", { name: "Sign in" }).click();
    await viewer.getByRole("heading", { name: "Licenses" }).waitFor();
    await viewer.goto(`/licenses/${state.licenseId}`);
    await viewer.getByRole("heading", { name: /SVC-/ }).waitFor();
    expect(await viewer.getByRole("link", { name: "Download .lic" }).count()).toBe(1);
    for (const name of ["Revoke", "Rebind", "Transfer", "Suspend"])
      expect(await viewer.getByRole("button", { name }).count(), name).toBe(0);
    await viewer.goto("/licenses");
    await viewer.getByRole("link", { name: state.licenseKey! }).waitFor();
    expect(await viewer.getByRole("link", { name: "Issue a license" }).count()).toBe(0);
    expect(await viewer.getByRole("link", { name: "Bulk issue from CSV" }).count()).toBe(0);
    await viewer.goto("/licenses/bulk");
    await viewer.getByText("Only an Admin or Owner can issue licenses.").waitFor();
    await viewer.goto("/companies");
    await viewer.getByRole("treeitem", { name: "Acme Group" }).waitFor();
    expect(await viewer.getByRole("button", { name: /^Actions for/ }).count()).toBe(0);
    expect(await viewer.getByRole("button", { name: "New root company" }).count()).toBe(0);
    // The same call the hidden button would make, from the viewer's session: refused by the server.
    const refused = await viewer.evaluate(async (id) => {
      const res = await fetch("/trpc/licenses.suspend", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ json: { id } }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { error: { json: { data: { appCode: string } } } },
      };
    }, state.licenseId);
    expect(refused.status).toBe(403);
    expect(refused.body.error.json.data.appCode).toBe("auth.forbidden");
    await viewer.context().close();
  });

  it("works on a phone-sized screen", { timeout: LONG }, async () => {
    const phone = await (await h.context(MOBILE)).newPage();
    await phone.goto("/sign-in");
    await phone.getByRole("textbox", { name: "Email", exact: true }).fill("viewer@acme.example");
    await phone.getByRole("textbox", { name: "Password", exact: true }).fill(state.viewerPassword!);
    await phone.getByRole("button", { name: "Sign in" }).click();
    await phone.getByRole("heading", { name: "Licenses" }).waitFor();
    await expectAccessible(phone);
    await screenshot(phone, "licenses-mobile");
    await phone.getByRole("button", { name: "Toggle navigation" }).click();
    await phone.getByRole("link", { name: "Companies" }).click();
    await phone.getByRole("treeitem", { name: "Acme Group" }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(phone);
    await screenshot(phone, "companies-mobile");
    await phone.goto(`/licenses/${state.licenseId}`);
    await phone.getByRole("heading", { name: /SVC-/ }).waitFor();
    await screenshot(phone, "license-mobile");
    await phone.context().close();
  });

  it(
    "lets a user turn on 2FA from the profile, with a QR code and recovery codes shown once",
    { timeout: LONG },
    async () => {
      const viewer = await (await h.context()).newPage();
      await viewer.goto("/sign-in");
      await viewer.getByRole("textbox", { name: "Email", exact: true }).fill("viewer@acme.example");
      await viewer.getByRole("textbox", { name: "Password", exact: true }).fill(state.viewerPassword!);
      await viewer.getByRole("button", { name: "Sign in" }).click();
      await viewer.getByRole("heading", { name: "Licenses" }).waitFor();
      // Another session of the viewer's, which turning 2FA on ends.
      const elsewhere = await h.app.client();
      await elsewhere.login("viewer@acme.example", state.viewerPassword!);
      await viewer.getByRole("link", { name: "Profile" }).click();
      // Signed in 10 minutes ago: the password must confirm it is the viewer.
      h.app.clock.advance(10 * 60_000);
      await viewer.getByRole("button", { name: "Set up two-factor authentication" }).click();
      const password = viewer.getByRole("textbox", { name: "Password", exact: true });
      await password.fill("not-the-password");
      await viewer.getByRole("button", { name: "Set up two-factor authentication" }).click();
      await viewer.getByText("password: the password is wrong").waitFor();
      await password.fill(state.viewerPassword!);
      await viewer.getByRole("button", { name: "Set up two-factor authentication" }).click();
      await viewer.getByRole("img", { name: "QR code of the authenticator key" }).waitFor();
      const key = (await viewer.locator("p", { hasText: "Key:" }).locator("code").textContent())!;
      await viewer.getByRole("textbox", { name: "Code from the app", exact: true }).fill("000000");
      await viewer.getByRole("button", { name: "Turn on" }).click();
      await until(() =>
        viewer.getByRole("textbox", { name: "Code from the app" }).getAttribute("aria-invalid"),
      ).toBe("true");
      await viewer
        .getByRole("textbox", { name: "Code from the app", exact: true })
        .fill(await totp(h.app, key));
      await viewer.getByRole("button", { name: "Turn on" }).click();
      await viewer.getByText("Two-factor authentication is on").waitFor();
      const codes = (await viewer.locator("pre").textContent())!.trim().split("\n");
      expect(codes).toHaveLength(10);
      expect((await elsewhere.api.auth.me()).status).toBe(401);
      expect((await h.app.smtp.waitFor("viewer@acme.example")).subject).toBe(
        "Two-factor authentication was turned on",
      );
      await expectAccessible(viewer);
      await screenshot(viewer, "profile");
      const login = await (
        await h.app.client()
      ).api.auth.login({ body: { email: "viewer@acme.example", password: state.viewerPassword! } });
      expect(login.body).toMatchObject({ twoFactorRequired: true, user: null });
      await viewer.context().close();
    },
  );

  it(
    "bulk-issues from a CSV: one row flagged before sending, one refused by the server, results as CSV",
    { timeout: LONG },
    async () => {
      await page.goto("/licenses");
      await page.getByRole("link", { name: "Bulk issue from CSV" }).click();
      await page.getByRole("heading", { name: "Bulk issue licenses" }).waitFor();
      await choose(page, "Template", /Acme Editor/);
      const csv = [
        "company,config",
        "acme-europe,",
        'globex,"{""edition"": ""pro"", ""features"": [""sync""]}"',
        "nobody-here,",
        'acme-group,"{""limits"": {""maxSeats"": 500}}"',
      ].join("\r\n");
      await page
        .locator('input[type="file"]')
        .setInputFiles({ name: "licenses.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      // The file's text lands in the paste box (a textarea keeps LF line breaks).
      await until(() => page.getByRole("textbox", { name: "Or paste the CSV" }).inputValue()).toBe(
        csv.replace(/\r\n/g, "\n"),
      );
      const preview = page.getByRole("table", { name: "Preview of the rows" });
      await preview.getByText('No company with the id or slug "nobody-here"').waitFor();
      await page.getByText("4 row(s): 3 ready, 1 will not be sent").waitFor();
      await page.getByRole("button", { name: "Issue 3 licenses" }).click();

      await until(() => page.getByRole("status").textContent()).toBe("2 of 4 issued; 1 failed, 1 skipped.");
      const results = page.getByRole("table", { name: "Results per row" });
      const row = (n: number) => results.getByRole("row").nth(n);
      expect(await row(1).getByRole("link").textContent()).toMatch(/^SVC-/);
      expect(await row(3).textContent()).toContain("skipped");
      expect(await row(4).textContent()).toMatch(/failed.*maxSeats.*license\.invalid_config/);
      await expectAccessible(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, "bulk-issue");

      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: "Download the results (CSV)" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("bulk-issue-results.csv");
      const text = await new Response((await file.createReadStream()) as unknown as ReadableStream).text();
      const lines = text.trim().split("\r\n");
      expect(lines[0]).toBe("row,company,companyId,status,licenseKey,licenseId,errorCode,errorMessage");
      expect(lines.slice(1).map((l) => l.split(",").slice(0, 4).join(","))).toEqual([
        expect.stringMatching(/^2,acme-europe,[0-9a-f-]{36},issued$/),
        expect.stringMatching(/^3,globex,[0-9a-f-]{36},issued$/),
        "4,nobody-here,,skipped",
        expect.stringMatching(/^5,acme-group,[0-9a-f-]{36},failed$/),
      ]);
      const issued = lines.slice(1, 3).map((l) => l.split(","));
      for (const [, , companyId, , licenseKey, licenseId] of issued) {
        const license = await licenseOf(licenseId!);
        expect(license).toMatchObject({ licenseKey, companyId, status: "Active", hwBinding: "none" });
      }
      const globex = await licenseOf(issued[1]![5]!);
      expect(JSON.parse(globex.config)).toMatchObject({ edition: "pro", features: ["sync"] });
      state.bulkLicenseId = issued[0]![5];

      // The same page on a phone: the tables scroll inside their box, the page does not.
      await page.setViewportSize(MOBILE);
      await page.evaluate(() => window.scrollTo(0, 0));
      // Once the layout has followed the new width (the navbar collapses).
      await until(() =>
        page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      await expectAccessible(page);
      await screenshot(page, "bulk-issue-mobile");
      await page.setViewportSize(DESKTOP);

      // More rows than one call takes: sent 200 at a time, every row issued.
      await page.getByRole("button", { name: "Start another batch" }).click();
      const many = ["company", ...Array.from({ length: 201 }, () => "globex")].join("\n");
      await page.getByRole("textbox", { name: "Or paste the CSV" }).fill(many);
      // Every text the progress line shows, recorded as the page renders it.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progress: string[] }).progress = seen;
        new MutationObserver(() => {
          const text = document.getElementById("bulk-progress-label")?.textContent;
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.getByRole("button", { name: "Issue 201 licenses" }).click();
      await until(() => page.getByRole("status").textContent()).toBe(
        "201 of 201 issued; 0 failed, 0 skipped.",
      );
      expect(await page.evaluate(() => (window as unknown as { progress: string[] }).progress)).toEqual([
        "Issued 0 of 201 (sent 200 at a time)",
        "Issued 200 of 201 (sent 200 at a time)",
      ]);
    },
  );

  it(
    "suspends, resumes and transfers a license, each dialog saying what will happen to its machine",
    { timeout: LONG },
    async () => {
      const client = await h.app.client();
      const license = await licenseOf(state.bulkLicenseId!);
      const activated = await client.api.client.activate({
        body: { licenseKey: license.licenseKey, hwFingerprint: "bulk-fp-1", machineName: "Reception PC" },
      });
      expect(activated.status).toBe(200);
      await page.goto(`/licenses/${state.bulkLicenseId}`);
      await page.getByRole("cell", { name: "Reception PC" }).waitFor();
      const dialog = page.getByRole("dialog");

      await page.getByRole("button", { name: "Suspend" }).click();
      await dialog.getByText(/The 1 activated machine keeps its seat/).waitFor();
      await dialog.getByRole("button", { name: "Suspend" }).click();
      await page.getByRole("button", { name: "Resume" }).waitFor();

      await page.getByRole("button", { name: "Resume" }).click();
      await dialog
        .getByText(
          /works again.*The 1 activated machine keeps its seat.*nothing needs to be downloaded again/,
        )
        .waitFor();
      await dialog.getByRole("button", { name: "Resume" }).click();
      await page.getByRole("button", { name: "Suspend" }).waitFor();
      expect((await licenseOf(state.bulkLicenseId!)).status).toBe("Active");

      await page.getByRole("button", { name: "Transfer" }).click();
      await dialog
        .getByText(
          /1 active activation will be deactivated and its seat freed, the version goes from 1 to 2, and the customer needs the new license file/,
        )
        .waitFor();
      expect(await dialog.getByRole("button", { name: "Transfer" }).isDisabled()).toBe(true);
      await choose(page, "New company", "Globex");
      await dialog.getByText(/moves to Globex/).waitFor();
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Transfer" }).click();
      await page.getByText("License transferred; 1 activation deactivated").waitFor();
      await page.getByRole("link", { name: "Globex" }).waitFor();

      const companies = (await operator.api.companies.list()).body;
      const moved = await licenseOf(state.bulkLicenseId!);
      expect(moved).toMatchObject({
        companyId: companies.find((c) => c.name === "Globex")!.id,
        currentVersion: 2,
        status: "Active",
      });
      await until(() => page.getByRole("cell", { name: "active", exact: true }).count()).toBe(0);
    },
  );

  it(
    "asks before what cannot be undone: retiring a signing key, revoking a token, deactivating a user",
    { timeout: LONG },
    async () => {
      const dialog = page.getByRole("dialog");
      await page.getByRole("link", { name: "Templates" }).click();
      await page.getByRole("link", { name: "Acme Editor" }).click();
      await page.getByRole("tab", { name: "Signing keys" }).click();
      await page.getByRole("button", { name: "Rotate the key" }).click();
      await dialog.getByText(/Programs already shipped keep working/).waitFor();
      await dialog.getByRole("button", { name: "Rotate the key" }).click();
      await page.getByRole("cell", { name: "Inactive" }).waitFor();
      await page.getByRole("button", { name: "Retire" }).click();
      await dialog.getByText(/^Retiring a key ends its certificate/).waitFor();
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      expect(await page.getByRole("cell", { name: "Inactive" }).count()).toBe(1);
      await page.getByRole("button", { name: "Retire" }).click();
      await dialog.getByRole("button", { name: "Retire" }).click();
      await page.getByRole("cell", { name: "Retired" }).waitFor();
      expect(await page.getByRole("button", { name: "Retire" }).count()).toBe(0);

      await page.getByRole("link", { name: "API tokens" }).click();
      await page.getByRole("button", { name: "Revoke" }).click();
      await dialog.getByText(/get 401 from now on/).waitFor();
      await dialog.getByRole("button", { name: "Revoke" }).click();
      await page.getByText("revoked", { exact: true }).waitFor();
      const withToken = await fetch(`${h.app.url}/api/v1/panel/companies`, {
        headers: { authorization: `Bearer ${state.tokenSecret}` },
      });
      expect(withToken.status).toBe(401);

      await page.getByRole("link", { name: "Companies" }).click();
      await page.getByRole("link", { name: "Acme Group" }).click();
      await page.getByRole("button", { name: "Deactivate" }).click();
      await dialog.getByText(/signed out everywhere/).waitFor();
      await dialog.getByRole("button", { name: "Deactivate" }).click();
      await page.getByRole("cell", { name: "revoked" }).waitFor();
      const viewer = await h.app.client();
      await expect(viewer.login("viewer@acme.example", state.viewerPassword!)).rejects.toThrow(/401/);
    },
  );

  it(
    "refuses to be framed, and serves the API documentation under its own policy",
    { timeout: LONG },
    async () => {
      // A page of another origin (another port) framing the app: the frame stays empty.
      const attackerSite = createServer((_req, res) =>
        res.end(`<!doctype html><iframe src="${h.app.url}/licenses"></iframe>`),
      );
      await new Promise<void>((resolve) => attackerSite.listen(0, "127.0.0.1", resolve));
      const framing = await h.context();
      try {
        const attacker = await framing.newPage();
        await attacker.goto(`http://127.0.0.1:${(attackerSite.address() as AddressInfo).port}/`);
        await attacker.waitForLoadState("load");
        const framed = attacker.frames().find((f) => f !== attacker.mainFrame())!;
        expect(await framed.evaluate(() => document.getElementById("root") !== null)).toBe(false);
      } finally {
        await framing.close();
        attackerSite.close();
      }
      // Chromium may report that refusal as a violation: the one this test causes on purpose.
      expect(h.takeCspViolations().filter((v) => !v.includes("frame-ancestors"))).toEqual([]);

      await page.goto("/api/docs/");
      await page.getByRole("heading", { name: /Licensing service API/ }).waitFor();
      await page
        .getByRole("button", { name: /\/panel\/auth\/me/ })
        .first()
        .waitFor();
    },
  );
});
