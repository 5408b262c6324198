import { signedPost, type TestClient } from "@licensing/api/testing";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  browserPath,
  choose,
  dismissNotifications,
  expectAccessible,
  input,
  operatorPage,
  screenshot,
  startHarness,
  until,
  type Harness,
} from "./harness.ts";

/**
 * Issue 23 in the admin app, in real Chromium against the real server: a floating template, a license
 * issued with its seat terms, the seats in use with their holders (leased through the real client API),
 * a force release the holder's next renew learns of, and the concurrency chart on the analytics page.
 */
const LONG = 120_000;

let h: Harness;
let operator: TestClient;
let client: TestClient;
let page: Page;
const state: { templateId?: string; licenseId?: string; licenseKey?: string } = {};

beforeAll(async () => {
  h = await startHarness();
  operator = await h.app.client({ signIn: true });
  client = await h.app.client();
  const company = await operator.api.companies.create({ body: { name: "Render Farm", slug: "render-farm" } });
  expect(company.status).toBe(201);
  page = await operatorPage(h);
}, 240_000);
afterEach(() => h?.expectNoCspViolations());
afterAll(() => h?.close());

const lease = (path: string, body: Record<string, string>) =>
  signedPost<{ leaseId: string }>(client, h.app.clock.now(), `/api/v1/client/leases${path}`, {
    licenseKey: state.licenseKey!,
    ...body,
  } as { licenseKey: string });

describe.skipIf(!browserPath)("floating seats in the admin app", () => {
  it(
    "creates a floating template, refusing a lease out of bounds with a message",
    { timeout: LONG },
    async () => {
      await page.getByRole("link", { name: "Templates" }).click();
      await page.getByRole("button", { name: "New template" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Render Engine");
      await dialog.getByRole("textbox", { name: "Product code", exact: true }).fill("RENDER");
      expect(await input(dialog, "Seats").inputValue()).toBe("Node-locked");
      expect(await input(dialog, "Lease (seconds)").count()).toBe(0);
      await choose(page, "Seats", "Floating");
      expect(await input(dialog, "Lease (seconds)").inputValue()).toBe("900");
      expect(await input(dialog, "Borrowing (days)").inputValue()).toBe("0");
      await input(dialog, "Lease (seconds)").fill("30");
      await dialog.getByRole("button", { name: "Create" }).click();
      await dialog.getByText("A lease lasts 60 to 86400 seconds (a whole number)").waitFor();
      await input(dialog, "Lease (seconds)").fill("600");
      await input(dialog, "Borrowing (days)").fill("3");
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Create" }).click();
      await page.getByRole("heading", { name: /Render Engine/ }).waitFor();
      state.templateId = new URL(page.url()).pathname.split("/").at(-1);
      const template = (await operator.api.templates.get({ params: { id: state.templateId! } })).body;
      expect(template).toMatchObject({ seatModel: "floating", leaseSeconds: 600, maxBorrowDays: 3 });
      await page.getByRole("tab", { name: "Settings" }).click();
      await until(() => input(page, "Seats").inputValue()).toBe("Floating");
      expect(await input(page, "Lease (seconds)").inputValue()).toBe("600");
    },
  );

  it("issues a floating license with its own machine limit", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "Licenses" }).click();
    await page.getByRole("link", { name: "Issue a license" }).click();
    await choose(page, "Company", "Render Farm");
    await choose(page, "Template", /Render Engine/);
    await until(() => input(page, "Seats").inputValue()).toBe("The template's: Floating");
    await page
      .getByRole("textbox", { name: "Configuration (JSON)" })
      .fill(JSON.stringify({ features: [], limits: { maxSeats: 2 } }));
    await input(page, "Machines (limits.maxMachines)").fill("0");
    await page.getByText("At least 1 machine (a whole number), or empty for no limit").waitFor();
    await input(page, "Machines (limits.maxMachines)").fill("5");
    await input(page, "Borrowing (days)").fill("31");
    await page.getByText(/^Borrowing is allowed for 0 \(none\) to 30 days/).waitFor();
    await input(page, "Borrowing (days)").fill("2");
    await page.getByRole("button", { name: "Issue the license" }).click();
    await page.getByRole("heading", { name: /SVC-/ }).waitFor();
    state.licenseId = new URL(page.url()).pathname.split("/").at(-1);
    state.licenseKey = (await page.getByRole("heading", { name: /SVC-/ }).locator("code").textContent())!;
    const license = (await operator.api.licenses.get({ params: { id: state.licenseId! } })).body;
    expect(license).toMatchObject({ seatModel: "floating", leaseSeconds: 600, maxBorrowDays: 2 });
    expect(JSON.parse(license.config)).toMatchObject({ limits: { maxSeats: 2, maxMachines: 5 } });
    await page.getByLabel("Seats in use").getByText("0 of 2 in use").waitFor();
    await page.getByText("No machine holds a seat now.").waitFor();
  });

  it(
    "shows the seats in use with their holders and force-releases one; its next renew is refused",
    { timeout: LONG },
    async () => {
      const leased: Record<string, string> = {};
      for (const name of ["Render node 1", "Render node 2"]) {
        const activated = await client.api.client.activate({
          body: { licenseKey: state.licenseKey!, hwFingerprint: `fp-${name}`, machineName: name },
        });
        expect(activated.status).toBe(200);
        const res = await lease("", { activationId: activated.body.activationId });
        expect(res.status, res.text).toBe(201);
        leased[name] = res.body.leaseId;
        h.app.clock.advance(60_000);
      }
      const borrowed = await lease("/borrow", {
        leaseId: leased["Render node 2"]!,
        until: new Date(h.app.clock.now().getTime() + 86_400_000).toISOString(),
      });
      expect(borrowed.status, borrowed.text).toBe(200);

      await page.reload();
      await page.getByLabel("Seats in use").getByText("2 of 2 in use").waitFor();
      const holders = page.getByRole("table", { name: "Seat holders" });
      await holders.getByRole("row").filter({ hasText: "Render node 1" }).waitFor();
      const second = holders.getByRole("row").filter({ hasText: "Render node 2" });
      expect(await second.getByRole("cell").nth(4).textContent()).not.toBe("—");
      await expectAccessible(page);
      await screenshot(
        page
          .getByRole("table", { name: "Seat holders" })
          .locator("xpath=ancestor::div[contains(@class,'mantine-Paper-root')][1]"),
        "license-seats",
      );

      const first = holders.getByRole("row").filter({ hasText: "Render node 1" });
      await first.getByRole("button", { name: "Force release" }).click();
      const dialog = page.getByRole("dialog", { name: "Force release the seat of Render node 1" });
      await dialog
        .getByText(/its next renew is refused \(410 lease\.released\), and it then looks for a seat again/)
        .waitFor();
      await screenshot(dialog, "force-release");
      await dialog.getByRole("button", { name: "Force release" }).click();
      await page.getByText("Lease released: the seat is free").waitFor();
      await page.getByLabel("Seats in use").getByText("1 of 2 in use").waitFor();
      await until(() => holders.getByRole("row").filter({ hasText: "Render node 1" }).count()).toBe(0);
      await dismissNotifications(page);

      const renew = await lease("/renew", { leaseId: leased["Render node 1"]! });
      expect(renew.status).toBe(410);
      expect(renew.error?.code).toBe("lease.released");
    },
  );

  it(
    "charts the peak leases per day against the seats, and the time the pool was full",
    { timeout: LONG },
    async () => {
      await page.goto(`/analytics?templateId=${state.templateId}`);
      const panel = page.getByRole("region", { name: "Floating seats per day" });
      await until(() => input(panel, "Template").inputValue()).toMatch(/Render Engine/);
      // Two leases at once against 2 seats, full from the second acquire until the force release.
      await panel
        .getByLabel("Floating seats summary")
        .getByText(/highest peak 2 of 2 seats; every seat leased for \d+ min in all, on 1 day$/)
        .waitFor();
      // The seats as a reference line, labelled.
      await until(() => panel.locator(".recharts-reference-line").count()).toBeGreaterThan(0);
      await until(() => panel.locator("svg text", { hasText: "2 seats" }).count()).toBeGreaterThan(0);
      await expectAccessible(page);
      await screenshot(panel, "analytics-concurrency");
    },
  );
});
