import { analytics } from "@licensing/core";
import {
  issueLicense,
  OPERATOR,
  signedPost,
  type ApiResponse,
  type IssuedLicense,
  type TestClient,
} from "@licensing/api/testing";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  browserPath,
  choose,
  dismissNotifications,
  expectAccessible,
  MOBILE,
  screenshot,
  startHarness,
  until,
  type Harness,
} from "./harness.ts";

/**
 * The analytics page and the operator console in real Chromium against the real server, over a small
 * platform seeded through the API across three UTC days (the clock moves; nothing sleeps):
 *
 *   Alpha Corp (root) ─ Alpha Labs        Beta Industries (root)
 *
 * day 0: L1 (Alpha Corp, Studio), L2 (Alpha Labs, Studio), L3 (Beta, Viewer) issued; L1 activated on two
 *        machines; two heartbeats of L1.
 * day 1: L4 (Beta, Studio, trial, expiring in 10 days) issued; L2 and L3 activated; a heartbeat each.
 * day 2 (today): one heartbeat of L1.
 * The rollup job then closes days 0 and 1, so the figures come from the rollups and the raw tail together.
 */
const LONG = 120_000;
const DAY = 86_400_000;
const MINUTE = 60_000;
const ADMIN = { email: "admin@alpha.example", password: "alpha-admin-password-1" };

let h: Harness;
let operator: TestClient;
let page: Page;
let days: [string, string, string];
const licenses: Record<string, IssuedLicense> = {};

/** The body of a call that must answer `status`. */
async function ok<T>(call: Promise<ApiResponse<T>>, status = 201) {
  const res = await call;
  expect(res.status, res.text).toBe(status);
  return res.body;
}

async function seed() {
  const now = h.app.clock.now().getTime();
  const day0 = Math.floor(now / DAY) * DAY - 2 * DAY;
  days = [0, 1, 2].map((n) => new Date(day0 + n * DAY).toISOString().slice(0, 10)) as typeof days;
  h.app.clock.set(new Date(day0 + 60 * MINUTE));
  operator = await h.app.client({ signIn: true });

  const company = (name: string, slug: string, parentId: string | null = null) =>
    ok(operator.api.companies.create({ body: { name, slug, parentId } }));
  const alpha = await company("Alpha Corp", "alpha-corp");
  const labs = await company("Alpha Labs", "alpha-labs", alpha.id);
  const beta = await company("Beta Industries", "beta-industries");
  const template = (name: string, productCode: string) =>
    ok(
      operator.api.templates.create({
        body: { name, productCode, defaultOfflineDays: 7, defaultValidityDays: 365 },
      }),
    );
  const studio = await template("Studio", "STUDIO");
  const viewer = await template("Viewer", "VIEWER");

  const client = await h.app.client();
  const activate = async (license: IssuedLicense, machine: string) =>
    ok(client.api.client.activate({ body: { licenseKey: license.licenseKey, hwFingerprint: machine } }), 200);
  const beat = async (license: IssuedLicense, activationId: string) => {
    h.app.clock.advance(MINUTE);
    const body = { licenseKey: license.licenseKey, activationId };
    const res = await signedPost(client, h.app.clock.now(), "/api/v1/client/heartbeat", body);
    expect(res.status, res.text).toBe(200);
  };
  const terms = { hwBinding: "none" } as const;

  licenses.l1 = await issueLicense(operator, { companyId: alpha.id, templateId: studio.id }, terms);
  licenses.l2 = await issueLicense(operator, { companyId: labs.id, templateId: studio.id }, terms);
  licenses.l3 = await issueLicense(operator, { companyId: beta.id, templateId: viewer.id }, terms);
  const m1 = await activate(licenses.l1, "alpha-1");
  await activate(licenses.l1, "alpha-2");
  await beat(licenses.l1, m1.activationId);
  await beat(licenses.l1, m1.activationId);

  h.app.clock.set(new Date(day0 + DAY + 60 * MINUTE));
  licenses.l4 = await issueLicense(
    operator,
    { companyId: beta.id, templateId: studio.id },
    { ...terms, isTrial: true, expiresAt: new Date(h.app.clock.now().getTime() + 10 * DAY).toISOString() },
  );
  const m2 = await activate(licenses.l2, "labs-1");
  const m3 = await activate(licenses.l3, "beta-1");
  await beat(licenses.l2, m2.activationId);
  await beat(licenses.l3, m3.activationId);

  // Back to the present (day 2), where the browser's clock is too.
  h.app.clock.set(new Date(Math.max(now, day0 + 2 * DAY + 60 * MINUTE)));
  await beat(licenses.l1, m1.activationId);
  expect(await analytics.rollupUsage(h.app.deps)).toBeGreaterThanOrEqual(2);
  expect(await analytics.rolledThrough(h.app.deps.db)).toBe(days[1]);

  // A company Admin of Alpha Corp, invited and accepted over the API.
  await ok(operator.api.users.invite({ body: { email: ADMIN.email, companyId: alpha.id, role: "admin" } }));
  const mail = await h.app.smtp.waitFor(ADMIN.email);
  const token = /accept-invite\?token=([^\s&]+)/.exec(mail.text)![1]!;
  await ok((await h.app.client()).api.auth.acceptInvite({ body: { token, password: ADMIN.password } }), 200);
}

async function signIn(target: Page, account: { email: string; password: string }, heading: string) {
  await target.getByRole("textbox", { name: "Email", exact: true }).fill(account.email);
  await target.getByRole("textbox", { name: "Password", exact: true }).fill(account.password);
  await target.getByRole("button", { name: "Sign in" }).click();
  await target.getByRole("heading", { name: heading }).waitFor();
}

/** The screen at rest for its screenshot: no focus ring, tooltip, open list or notification in the way. */
async function shoot(target: Page, name: string) {
  await target.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await target.mouse.move(0, 0);
  await dismissNotifications(target);
  await screenshot(target, name);
}

beforeAll(async () => {
  h = await startHarness();
  await seed();
  page = await (await h.context()).newPage();
}, 240_000);
afterAll(() => h?.close());
afterEach(() => h?.expectNoCspViolations());

const summary = (target: Page) => target.getByText(/activations, \d+ heartbeats, \d+ licenses issued/);
/** A tile's figure and the line under it. */
const tile = async (label: string) =>
  (await page.getByRole("group", { name: label, exact: true }).locator("p").allTextContents()).slice(1);
const tab = (name: string) => page.getByRole("tab", { name, exact: true });
const rowsOf = (table: string) => page.getByRole("table", { name: table }).locator("tbody tr");
const usageMessage = async (query: { from: string; to: string }) =>
  (await operator.api.analytics.usage({ query })).error;

describe.skipIf(!browserPath)("the operator console and analytics", () => {
  it("shows an operator the platform's figures on the overview tiles", { timeout: LONG }, async () => {
    await page.goto("/operator");
    await until(() => new URL(page.url()).pathname).toBe("/sign-in");
    await signIn(page, OPERATOR, "Operator console");
    await tab("Overview").waitFor();
    await until(() => tile("Companies")).toEqual(["3", "2 root companies (tenants)"]);
    expect(await tile("Licenses")).toEqual(["4", "4 active · 0 suspended · 0 revoked · 0 expired"]);
    expect((await tile("Trial licenses"))[0]).toBe("1");
    expect((await tile("Active activations"))[0]).toBe("4");
    expect((await tile("Expiring in 30 days"))[0]).toBe("1");
    expect((await tile("Templates"))[0]).toBe("2");
    expect((await tile("Webhook endpoints"))[0]).toBe("0");
    expect(await tile("Deliveries in the last 24 h")).toEqual(["0", "0 delivered · 0 pending · 0 failed"]);
    await expectAccessible(page);
    await shoot(page, "operator");
  });

  it("draws usage and distribution for a chosen range, the range in the URL", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "Analytics" }).click();
    await page.getByRole("heading", { name: "Analytics" }).waitFor();
    // The default window (the last 30 days) holds everything seeded.
    await until(() => summary(page).textContent()).toMatch(
      /: 4 activations, 5 heartbeats, 4 licenses issued$/,
    );

    await page.getByRole("textbox", { name: "From", exact: true }).fill(days[0]);
    await page.getByRole("textbox", { name: "To", exact: true }).fill(days[2]);
    await page.getByRole("button", { name: "Show" }).click();
    await until(() => summary(page).textContent()).toBe(
      `${days[0]} to ${days[2]}: 4 activations, 5 heartbeats, 4 licenses issued`,
    );
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ from: days[0], to: days[2] });
    // One line per series, and the legend names them.
    await until(() => page.locator(".recharts-line").count()).toBe(3);
    for (const name of ["activations", "heartbeats", "licenses issued"])
      await page.locator(".recharts-legend-wrapper").getByText(name, { exact: true }).waitFor();

    await page.getByRole("textbox", { name: "From", exact: true }).fill(days[1]);
    await page.getByRole("button", { name: "Show" }).click();
    await until(() => summary(page).textContent()).toBe(
      `${days[1]} to ${days[2]}: 2 activations, 3 heartbeats, 1 licenses issued`,
    );
    // Back to the wider range, fields included.
    await page.goBack();
    await until(() => summary(page).textContent()).toMatch(
      /: 4 activations, 5 heartbeats, 4 licenses issued$/,
    );
    expect(await page.getByRole("textbox", { name: "From", exact: true }).inputValue()).toBe(days[0]);

    const licensesByTemplate = page.getByRole("group", { name: "Licenses by template" });
    await licensesByTemplate.getByText("Studio (STUDIO): 3 · Viewer (VIEWER): 1").waitFor();
    expect(await licensesByTemplate.locator(".recharts-bar-rectangle").count()).toBe(2);
    await page
      .getByRole("group", { name: "Live activations by template" })
      .getByText("Studio (STUDIO): 3 · Viewer (VIEWER): 1")
      .waitFor();
    expect(await rowsOf("Top companies by live activations").allTextContents()).toEqual([
      "1Alpha Corp2",
      "2Alpha Labs1",
      "3Beta Industries1",
    ]);

    // The company filter narrows both to that subtree, and goes into the URL too.
    await choose(page, "Company", "Alpha Corp");
    await until(() => summary(page).textContent()).toMatch(
      /: 3 activations, 4 heartbeats, 2 licenses issued$/,
    );
    await until(() => rowsOf("Top companies by live activations").count()).toBe(2);
    expect(new URL(page.url()).searchParams.get("companyId")).toMatch(/^[0-9a-f-]{36}$/);
    await page.goBack();
    await until(() => rowsOf("Top companies by live activations").count()).toBe(3);
    await expectAccessible(page);
    await shoot(page, "analytics");
  });

  it("shows the server's message at the range field for a bad range", { timeout: LONG }, async () => {
    const from = page.getByRole("textbox", { name: "From", exact: true });
    await from.fill(days[2]);
    await page.getByRole("textbox", { name: "To", exact: true }).fill(days[0]);
    await page.getByRole("button", { name: "Show" }).click();
    const inverted = await usageMessage({ from: days[2], to: days[0] });
    expect(inverted.code).toBe("analytics.invalid_range");
    await page.getByText(inverted.message, { exact: true }).waitFor();
    expect(await from.getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByText("Choose a valid range to see the usage.").count()).toBe(1);

    await from.fill("2024-01-01");
    await page.getByRole("textbox", { name: "To", exact: true }).fill(days[2]);
    await page.getByRole("button", { name: "Show" }).click();
    const long = await usageMessage({ from: "2024-01-01", to: days[2] });
    expect(long.code).toBe("analytics.range_too_large");
    await page.getByText(long.message, { exact: true }).waitFor();
    await expectAccessible(page);
  });

  it("finds a tenant by part of its name, with the size of its subtree", { timeout: LONG }, async () => {
    await page.goto("/operator?tab=tenants");
    await until(() => rowsOf("Tenants").count()).toBe(2);
    await page.getByRole("textbox", { name: "Search tenants", exact: true }).fill("ALPH");
    await until(() => rowsOf("Tenants").count()).toBe(1);
    // Alpha Corp, its slug, Active, one company below, two licenses in the subtree.
    expect(await rowsOf("Tenants").first().textContent()).toMatch(/^Alpha Corpalpha-corpActive12/);
    expect(new URL(page.url()).searchParams.get("search")).toBe("ALPH");
    await expectAccessible(page);
    await shoot(page, "operator-tenants");
  });

  it("narrows all licenses by trial, company and status", { timeout: LONG }, async () => {
    await tab("All licenses").click();
    await until(() => new URL(page.url()).searchParams.get("tab")).toBe("licenses");
    await page.getByText("4 licenses").waitFor();
    await choose(page, "Trial", "Trial licenses only");
    await page.getByText("1 licenses").waitFor();
    await page.getByRole("link", { name: licenses.l4!.licenseKey }).waitFor();
    expect(new URL(page.url()).searchParams.get("trial")).toBe("true");

    await page.goto("/operator?tab=licenses");
    await page.getByText("4 licenses").waitFor();
    await choose(page, "Company", "Alpha Labs");
    await page.getByText("1 licenses").waitFor();
    await page.getByRole("link", { name: licenses.l2!.licenseKey }).waitFor();
    await choose(page, "Status", "Revoked");
    await page.getByText("No license matches these filters.").waitFor();
    await page.goBack();
    await page.getByRole("link", { name: licenses.l2!.licenseKey }).waitFor();
    await expectAccessible(page);
    await shoot(page, "operator-licenses");
  });

  it("invites an operator, and promotes and demotes a company admin", { timeout: LONG }, async () => {
    await tab("Operators").click();
    await page.getByRole("cell", { name: OPERATOR.email, exact: true }).waitFor();

    await page.getByRole("button", { name: "Invite an operator" }).click();
    const dialog = page.getByRole("dialog");
    const email = dialog.getByRole("textbox", { name: "Email", exact: true });
    await email.fill(OPERATOR.email);
    await dialog.getByRole("button", { name: "Send the invitation" }).click();
    await dialog.getByText(`An active account for ${OPERATOR.email} already exists`).waitFor();
    expect(await email.getAttribute("aria-invalid")).toBe("true");
    await expectAccessible(page);
    await email.fill("second-operator@example.com");
    await dialog.getByRole("textbox", { name: "Display name", exact: true }).fill("Second Operator");
    await dialog.getByRole("button", { name: "Send the invitation" }).click();
    await page.getByRole("cell", { name: "second-operator@example.com", exact: true }).waitFor();
    expect(
      await page.getByRole("row").filter({ hasText: "second-operator@example.com" }).textContent(),
    ).toMatch(/Second Operator.*pending/);
    await h.app.smtp.waitFor("second-operator@example.com");

    await page.getByRole("button", { name: "Promote a user" }).click();
    await choose(page, "User", /^admin@alpha\.example \(Alpha Corp, admin\)/);
    await page.getByRole("dialog").getByRole("button", { name: "Promote" }).click();
    await page.getByRole("cell", { name: ADMIN.email, exact: true }).waitFor();
    await expectAccessible(page);
    await shoot(page, "operator-users");

    await page.getByRole("button", { name: `Demote ${ADMIN.email}` }).click();
    await page.getByRole("dialog").getByText("signed out everywhere").waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Demote" }).click();
    await until(() => page.getByRole("cell", { name: ADMIN.email, exact: true }).count()).toBe(0);
    const rest = (await operator.api.operator.users.list()).body;
    expect(rest.map((u) => u.email).sort()).toEqual([OPERATOR.email, "second-operator@example.com"]);
    // No way to demote oneself from here.
    expect(await page.getByRole("button", { name: `Demote ${OPERATOR.email}` }).count()).toBe(0);
  });

  it(
    "shows a company admin no console, and analytics of their own subtree, on a phone",
    { timeout: LONG },
    async () => {
      const phone = await (await h.context(MOBILE)).newPage();
      await phone.goto("/analytics");
      await signIn(phone, ADMIN, "Analytics");
      await until(() => summary(phone).textContent()).toMatch(
        /: 3 activations, 4 heartbeats, 2 licenses issued$/,
      );
      const top = phone.getByRole("table", { name: "Top companies by live activations" }).locator("tbody tr");
      await until(() => top.allTextContents()).toEqual(["1Alpha Corp2", "2Alpha Labs1"]);
      await phone
        .getByRole("group", { name: "Licenses by template" })
        .getByText("Studio (STUDIO): 2", { exact: true })
        .waitFor();
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expectAccessible(phone);
      await shoot(phone, "analytics-mobile");

      await phone.getByRole("button", { name: "Toggle navigation" }).click();
      const nav = phone.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link", { name: "Analytics" }).waitFor();
      expect(await nav.getByRole("link", { name: "Operator console" }).count()).toBe(0);
      await phone.goto("/operator");
      await phone.getByRole("alert").getByText("only operators may open it").waitFor();
      expect(await phone.getByRole("tab").count()).toBe(0);
      await expectAccessible(phone);
      // The server refuses the console's calls anyway.
      const refused = await phone.evaluate(async () => (await fetch("/trpc/operator.overview")).status);
      expect(refused).toBe(403);
      await phone.context().close();
    },
  );
});
