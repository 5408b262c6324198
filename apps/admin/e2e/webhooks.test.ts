import {
  createLicensedCompany,
  issueLicense,
  OPERATOR,
  type IssuedLicense,
  type TestClient,
} from "@licensing/api/testing";
import { startWebhookReceiver, type WebhookReceiver } from "@licensing/api/testing/webhook-receiver";
import { MINUTE, HOUR, webhooks } from "@licensing/core";
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
 * An operator manages webhooks in the admin app, in real Chromium against the real server: an endpoint
 * created in the UI, pointed at a real receiver that verifies signatures; the deliveries, their failed
 * attempts and a replay as the operator sees them. The test app runs no delivery worker: the test runs
 * the dispatcher itself (as the server's job would) and moves the clock for retries to come due.
 */
const LONG = 120_000;
const ADMIN = { email: "admin@customer.example", password: "admin-password-1" };
const RETRY_WAITS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR];

let h: Harness;
let operator: TestClient;
let target: { companyId: string; templateId: string };
let page: Page;
let receiver: WebhookReceiver | undefined;
const state: { secret?: string; endpointId?: string; license?: IssuedLicense } = {};

beforeAll(async () => {
  // The receiver listens on loopback, which only WEBHOOK_ALLOW_PRIVATE lets an endpoint URL reach.
  h = await startHarness({ webhooks: { allowPrivate: true, timeoutMs: 5_000 } });
  operator = await h.app.client({ signIn: true });
  target = await createLicensedCompany(operator);
  const context = await h.context();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  page = await context.newPage();
}, 240_000);
afterEach(() => h?.expectNoCspViolations());
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

const dispatch = () => webhooks.dispatchDueDeliveries(h.app.deps);

async function signIn(p: Page, user: { email: string; password: string }) {
  await p.goto("/sign-in");
  await p.getByRole("textbox", { name: "Email", exact: true }).fill(user.email);
  await p.getByRole("textbox", { name: "Password", exact: true }).fill(user.password);
  await p.getByRole("button", { name: "Sign in" }).click();
  await p.getByRole("heading", { name: "Licenses" }).waitFor();
}

describe.skipIf(!browserPath)("webhooks in the admin app", () => {
  it(
    "creates an endpoint, each refused input shown at its field, with a generated secret",
    { timeout: LONG },
    async () => {
      await signIn(page, OPERATOR);
      await page.getByRole("link", { name: "Webhooks" }).click();
      await page.getByText("No webhook endpoint yet.").waitFor();
      await page.getByRole("button", { name: "New endpoint" }).click();
      const dialog = page.getByRole("dialog");
      const url = dialog.getByRole("textbox", { name: "URL", exact: true });
      const secret = dialog.getByRole("textbox", { name: "Secret", exact: true });
      await url.fill("ftp://example.com/hooks");
      await dialog.getByRole("textbox", { name: "Description", exact: true }).fill("Billing system");
      await choose(page, "Events", "license.issued");
      await choose(page, "Events", "license.revoked");

      // The server checks the secret first: its message shows at the secret, not the URL.
      await secret.fill("too-short");
      await dialog.getByRole("button", { name: "Create" }).click();
      await until(() => secret.getAttribute("aria-invalid")).toBe("true");
      await dialog.getByText("secret: at least 16 characters").waitFor();
      expect(await url.getAttribute("aria-invalid")).not.toBe("true");

      await dialog.getByRole("button", { name: "Generate a secret" }).click();
      state.secret = await secret.inputValue();
      expect(state.secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      await dialog.getByRole("button", { name: "Copy the secret" }).click();
      await dialog.getByRole("button", { name: "Copied" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(state.secret);

      await dialog.getByRole("button", { name: "Create" }).click();
      await until(() => url.getAttribute("aria-invalid")).toBe("true");
      await dialog.getByText(/url: the scheme must be http or https/).waitFor();
      expect(await secret.getAttribute("aria-invalid")).not.toBe("true");

      receiver = await startWebhookReceiver({ secret: state.secret, now: () => h.app.clock.now() });
      await url.fill(receiver.url);
      await dialog.getByRole("button", { name: "Create" }).click();
      await page.getByText("Created the webhook endpoint").waitFor();
      await page.getByRole("link", { name: receiver.url }).waitFor();
      expect(await page.getByRole("dialog").count()).toBe(0);
      // Write-only: the secret is nowhere on the page once created.
      expect(await page.getByText(state.secret).count()).toBe(0);

      const [created] = (await operator.api.webhooks.list()).body;
      expect(created).toMatchObject({
        url: receiver.url,
        description: "Billing system",
        isActive: true,
        events: ["license.issued", "license.revoked"],
      });
      expect(created).not.toHaveProperty("secret");
      state.endpointId = created!.id;
    },
  );

  it(
    "shows a delivery's failed attempts with the response, then replays it to success",
    { timeout: LONG },
    async () => {
      // The receiver is down for every attempt the retry policy makes: five 500s, then Failed.
      for (let i = 0; i < 5; i++) receiver!.queue.push({ status: 500, body: "maintenance: try later" });
      state.license = await issueLicense(operator, target);
      expect(await dispatch()).toBe(1);

      await page.getByRole("link", { name: receiver!.url }).click();
      await page.getByRole("heading", { name: /Webhook endpoint/ }).waitFor();
      const row = page.getByRole("row").filter({ hasText: "license.issued" });
      await row.getByText("Pending").waitFor();
      expect(await row.getByRole("cell").nth(3).textContent()).toBe("1");
      expect(await row.getByRole("cell").nth(4).textContent()).toBe("500");

      for (const wait of RETRY_WAITS) {
        h.app.clock.advance(wait);
        expect(await dispatch()).toBe(1);
      }
      // No longer Pending: the page stops polling, so the operator refreshes.
      await page.getByRole("button", { name: "Refresh" }).click();
      await row.getByText("Failed").waitFor();
      expect(await row.getByRole("cell").nth(3).textContent()).toBe("5");
      expect(receiver!.received).toHaveLength(5);

      await row.getByRole("button", { name: /^Details of the license.issued delivery/ }).click();
      const details = page.locator(`#delivery-${receiver!.received[0]!.deliveryId}`);
      await details.getByText("maintenance: try later").waitFor();
      // The payload as text: exactly the body the receiver got, and Copy gives those bytes.
      const sent = receiver!.received[0]!.raw.toString("utf8");
      const payload = details.locator("pre").first();
      expect(await payload.textContent()).toBe(sent);
      expect(sent).toContain(state.license.licenseKey);
      await details.getByRole("switch", { name: "Indent for reading" }).check();
      await until(() => payload.textContent()).toBe(JSON.stringify(JSON.parse(sent), null, 2));
      await details.getByRole("button", { name: "Copy the payload" }).click();
      await details.getByRole("button", { name: "Copied" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(sent);
      await dismissNotifications(page);
      await expectAccessible(page);
      await screenshot(page, "webhook-deliveries");

      // The receiver is back (it answers 200 when its queue is empty); the replay starts over.
      await row.getByRole("button", { name: /^Replay the license.issued delivery/ }).click();
      await page.getByText("Replay queued: the delivery is Pending again").waitFor();
      await row.getByText("Pending").waitFor();
      expect(await row.getByRole("cell").nth(3).textContent()).toBe("0");
      expect(await dispatch()).toBe(1);
      // Pending, the page polls: Succeeded shows without a refresh.
      await row.getByText("Succeeded").waitFor();
      expect(await row.getByRole("cell").nth(4).textContent()).toBe("200");
      expect(await row.getByRole("cell").nth(3).textContent()).toBe("1");

      expect(receiver!.received).toHaveLength(6);
      const replayed = receiver!.received[5]!;
      expect(replayed.deliveryId).toBe(receiver!.received[0]!.deliveryId);
      expect(replayed.verified).toEqual({ xServiceSignature: true, standardWebhooks: true });
      expect(replayed.body).toMatchObject({
        event: "license.issued",
        data: { licenseId: state.license.id, licenseKey: state.license.licenseKey },
      });
    },
  );

  it("lists the endpoints with their last delivery, also on a phone", { timeout: LONG }, async () => {
    await page.getByRole("link", { name: "Webhooks" }).click();
    const row = page.getByRole("row").filter({ hasText: receiver!.url });
    await row.getByText("active", { exact: true }).waitFor();
    // The cached list shows first, then the fresh one with the attempts made since.
    await until(() => row.getByRole("cell").nth(3).textContent()).not.toBe("never");
    // Off the nav link just clicked: its hover shade is the shell's, checked by the other suites.
    await page.mouse.move(640, 780);
    await dismissNotifications(page);
    await expectAccessible(page);
    await screenshot(page, "webhooks");

    const phone = await (await h.context(MOBILE)).newPage();
    await signIn(phone, OPERATOR);
    await phone.getByRole("button", { name: "Toggle navigation" }).click();
    await phone.getByRole("link", { name: "Webhooks" }).click();
    await phone.getByRole("link", { name: receiver!.url }).waitFor();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(phone);
    await screenshot(phone, "webhooks-mobile");
    await phone.context().close();
  });

  it("shows a company Admin no Webhooks link and says why at /webhooks", { timeout: LONG }, async () => {
    const invited = await operator.api.users.invite({
      body: { email: ADMIN.email, companyId: target.companyId, role: "admin" },
    });
    expect(invited.status).toBe(201);
    const mail = await h.app.smtp.waitFor(ADMIN.email);
    const token = /accept-invite\?token=(\S+)/.exec(mail.text)![1]!;
    const accepted = await (
      await h.app.client()
    ).api.auth.acceptInvite({ body: { token, password: ADMIN.password } });
    expect(accepted.status).toBe(200);

    const admin = await (await h.context()).newPage();
    await signIn(admin, ADMIN);
    await admin.getByRole("link", { name: "API tokens" }).waitFor();
    expect(await admin.getByRole("link", { name: "Webhooks" }).count()).toBe(0);
    await admin.goto("/webhooks");
    await admin.getByText("Operators only").waitFor();
    expect(await admin.getByRole("button", { name: "New endpoint" }).count()).toBe(0);
    await admin.goto(`/webhooks/${state.endpointId}`);
    await admin.getByText("Operators only").waitFor();
    await expectAccessible(admin);
    // The same call the page would make, from the Admin's session: refused by the server.
    const refused = await admin.evaluate(async () => {
      const res = await fetch("/trpc/webhooks.list");
      return res.status;
    });
    expect(refused).toBe(403);
    await admin.context().close();
  });

  it(
    "edits an endpoint (inactive, a new secret) and deletes it after confirming",
    { timeout: LONG },
    async () => {
      await page.getByRole("button", { name: `Edit ${receiver!.url}` }).click();
      const dialog = page.getByRole("dialog");
      const secret = dialog.getByRole("textbox", { name: "New secret", exact: true });
      expect(await secret.inputValue()).toBe("");
      await secret.fill("short");
      await dialog.getByRole("button", { name: "Save" }).click();
      await until(() => secret.getAttribute("aria-invalid")).toBe("true");
      await secret.fill("a-new-secret-of-enough-length");
      await dialog.getByRole("textbox", { name: "Description", exact: true }).fill("Billing (paused)");
      await dialog.getByRole("switch", { name: "Active" }).uncheck();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved the webhook endpoint").waitFor();
      const row = page.getByRole("row").filter({ hasText: receiver!.url });
      await row.getByText("inactive", { exact: true }).waitFor();
      await row.getByText("Billing (paused)").waitFor();

      // Inactive: a new event makes no delivery for it.
      await operator.api.licenses.revoke({ params: { id: state.license!.id }, body: { reason: "test" } });
      const deliveries = (await operator.api.webhooks.deliveries({ params: { id: state.endpointId! } })).body;
      expect(deliveries).toHaveLength(1);

      await page.getByRole("link", { name: receiver!.url }).click();
      await page.getByText(/its pending ones \(a replay too\) wait/).waitFor();
      await dismissNotifications(page);
      await expectAccessible(page);
      // Deleted from its own page: back to the list, where it is gone.
      await page.getByRole("button", { name: "Delete", exact: true }).click();
      await page
        .getByRole("dialog")
        .getByText(/cannot be undone/)
        .waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
      await page.getByText("No webhook endpoint yet.").waitFor();
      expect(new URL(page.url()).pathname).toBe("/webhooks");
      expect((await operator.api.webhooks.list()).body).toEqual([]);
    },
  );
});
