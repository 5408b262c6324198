import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import { OPERATOR, startTestApp, type TestApp, type TestAppOptions } from "@licensing/api/testing";
import { needTool, tools } from "@licensing/api/testing/tools";
import { generate } from "otplib";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { expect } from "vitest";
import { ADMIN_DIST, ADMIN_ROOT, ensureAdminBuild } from "../ensure-build.ts";

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };
// Every run takes the screenshots (a screen that fails to render fails the test); only
// UPDATE_SCREENSHOTS=1 writes the committed ones, so `npm test` leaves the tree clean.
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(ADMIN_ROOT, "../../docs/screenshots")
  : join(tmpdir(), "licensing-admin-screenshots");
/** The machine's Chromium or Chrome; null (after a line saying so) skips the suites: `describe.skipIf(!browserPath)`. */
export const browserPath = needTool(tools.browser, "the admin app's end-to-end tests");

export interface Harness {
  app: TestApp;
  browser: Browser;
  /** A fresh browser profile (no cookies) on the app, at a viewport. */
  context(viewport?: { width: number; height: number }): Promise<BrowserContext>;
  /**
   * Fails on any Content-Security-Policy violation reported since the last call, in any context (each
   * test file calls it after every test, and `close` once more): the app runs under the server's real
   * policy, and a blocked script or style is a bug.
   */
  expectNoCspViolations(): void;
  /** The violations reported since the last call, forgotten (for a test that causes one on purpose). */
  takeCspViolations(): string[];
  close(): Promise<void>;
}

// Chromium reports a violation on the console ("Refused to apply inline style because it violates the
// following Content Security Policy directive …"); the page's own `securitypolicyviolation` event says
// the same in a line of ours, in case a version words the first differently.
const CSP_CONSOLE = /Content Security Policy|CSP violation/i;
const reportViolations = () =>
  document.addEventListener("securitypolicyviolation", (e) =>
    console.error(
      `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}`,
    ),
  );

/**
 * The real app (REST + tRPC + the admin build) on an ephemeral port over an isolated database with a real
 * SMTP receiver, and the machine's Chromium driven by playwright-core. Builds the admin app first when stale.
 */
export async function startHarness(options: TestAppOptions = {}): Promise<Harness> {
  if (!browserPath)
    throw new Error("no browser: the suite should have been skipped (describe.skipIf(!browserPath))");
  ensureAdminBuild();
  const app = await startTestApp({ ...options, adminDir: ADMIN_DIST });
  const browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
  });
  const contexts: BrowserContext[] = [];
  const violations: string[] = [];
  const expectNoCspViolations = () =>
    expect(violations.splice(0), "Content-Security-Policy violations in the console").toEqual([]);
  return {
    app,
    browser,
    async context(viewport = DESKTOP) {
      // Reduced motion: no element is caught half faded in by a screenshot or by axe's contrast check.
      const context = await browser.newContext({
        baseURL: app.url,
        viewport,
        acceptDownloads: true,
        reducedMotion: "reduce",
      });
      context.setDefaultTimeout(15_000);
      await context.addInitScript(reportViolations);
      context.on("console", (message) => {
        if (CSP_CONSOLE.test(message.text())) violations.push(`${message.page()?.url()}: ${message.text()}`);
      });
      contexts.push(context);
      return context;
    },
    expectNoCspViolations,
    takeCspViolations: () => violations.splice(0),
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      await app.close();
      expectNoCspViolations();
    },
  };
}

/**
 * Saves `docs/screenshots/admin-<name>.png` (the README shows them): the whole page, or one element of it
 * (a dialog, whose page behind is dimmed and scrolled).
 */
export async function screenshot(target: Page | Locator, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `admin-${name}.png`);
  if ("goto" in target) {
    await target.waitForLoadState("networkidle");
    await target.screenshot({ path, fullPage: true, animations: "disabled" });
  } else {
    await target.page().waitForLoadState("networkidle");
    await target.screenshot({ path, animations: "disabled" });
  }
}

/** axe-core on the current page: no serious or critical violation (labels, contrast, roles, names). */
export async function expectAccessible(page: Page) {
  await page.waitForLoadState("networkidle");
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious.join("\n"), page.url()).toBe("");
}

/** A TOTP code for the service's clock, which the tests move so that each code is fresh. */
export async function totp(app: TestApp, secret: string): Promise<string> {
  app.clock.advance(30_000);
  return generate({ secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });
}

/** Picks an option of a Mantine Select or MultiSelect by its label. */
export async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  const input = page
    .getByRole("combobox", { name: label, exact: true })
    .or(page.getByRole("textbox", { name: label, exact: true }));
  await input.click();
  await page.getByRole("option", { name: option }).click();
  // A MultiSelect keeps its list open; moving the focus on closes it (Escape would close a dialog too).
  await page.keyboard.press("Tab");
}

/** `expect.poll` with the patience of a loaded CI machine (its default gives up after one second). */
export const until = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000, interval: 100 });

/**
 * Closes the notifications still shown (a screenshot wants the header under them). One at a time: each
 * close removes its notification at once (reduced motion), so the list of buttons changes under the loop;
 * and one may close itself (autoClose) between the count and the click, so a missed click is no failure.
 */
export async function dismissNotifications(page: Page) {
  const notifications = page.locator(".mantine-Notification-root");
  for (let tries = 0; tries < 20 && (await notifications.count()) > 0; tries++)
    await notifications
      .first()
      .getByRole("button", { name: "Close" })
      .click({ timeout: 1_000 })
      .catch(() => undefined);
  await until(() => notifications.count()).toBe(0);
}

/** A new page in a fresh browser profile, signed in as the operator, on the licenses list. */
export async function operatorPage(h: Harness): Promise<Page> {
  const page = await (await h.context()).newPage();
  await page.goto("/sign-in");
  await page.getByRole("textbox", { name: "Email", exact: true }).fill(OPERATOR.email);
  await page.getByRole("textbox", { name: "Password", exact: true }).fill(OPERATOR.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Licenses" }).waitFor();
  return page;
}

/** A labelled value of a detail page (`Field`): its label and what follows. */
export const field = (p: Page | Locator, label: string) =>
  p.getByText(label, { exact: true }).locator("xpath=..");

/** A Select's, NumberInput's or TextInput's input, by its label. */
export const input = (p: Page | Locator, label: string) =>
  p
    .getByRole("combobox", { name: label, exact: true })
    .or(p.getByRole("textbox", { name: label, exact: true }));
