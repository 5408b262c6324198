import { needTool, tools } from "@licensing/api/testing/tools";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../main/window-security.ts";
import type { LicenseView, ScenarioRun } from "../shared/bridge.ts";
import { installBridgeStub, type StubAnswers } from "../testing/bridge-stub.ts";
import { screenshot, startRendererHost, type RendererHost } from "../testing/renderer-host.ts";
import { views, withQa } from "../testing/views.ts";

/**
 * The renderer as built for Electron, in Chromium, against a stub of the preload bridge. Set
 * UPDATE_SCREENSHOTS=1 to rewrite docs/screenshots/desktop-*.png from these pages.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const browserPath = needTool(tools.browser, "the desktop sample's renderer tests");
// expect.poll gives up after one second by default, no bound for a loaded machine; this only bounds a hang.
const PATIENCE = { timeout: 15_000 };

let host: RendererHost;

beforeAll(async () => {
  if (browserPath) host = await startRendererHost(browserPath);
}, 120_000);

afterAll(() => host?.close());

async function open(view: LicenseView, options: { answers?: StubAnswers; clockAt?: number } = {}) {
  const page = await host.newPage();
  if (options.clockAt !== undefined) {
    // The page's clock stands still at `clockAt` until the test moves it.
    await page.clock.install({ time: options.clockAt - 1000 });
    await page.clock.pauseAt(options.clockAt);
  }
  await page.addInitScript(installBridgeStub, { view, answers: options.answers ?? {} });
  await page.goto(host.pageUrl);
  await page.getByRole("heading", { name: "Acme Editor", exact: true }).waitFor();
  return page;
}

const calls = (page: Page) => page.evaluate(() => (window as unknown as { __calls: unknown[] }).__calls);
const push = (page: Page, view: LicenseView) =>
  page.evaluate((next) => (window as unknown as { __push: (v: unknown) => void }).__push(next), view);

/** Every interactive control has an accessible name (its label, aria-label(ledby), or text). */
async function unlabelledControls(page: Page) {
  return page.evaluate(() => {
    const selector =
      "button, input:not([type=hidden]), select, textarea, a[href], [role=button], [role=radio], [role=switch], [role=tab], [role=combobox], [role=slider], [role=progressbar], [role=radiogroup]";
    const nameOf = (element: Element) => {
      const labelledBy = element.getAttribute("aria-labelledby");
      const byIds = labelledBy
        ?.split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" ");
      const labels = (element as HTMLInputElement).labels;
      return [
        element.getAttribute("aria-label"),
        byIds,
        labels && [...labels].map((label) => label.textContent).join(" "),
        element instanceof HTMLInputElement || element instanceof HTMLSelectElement
          ? ""
          : element.textContent,
        element.getAttribute("title"),
      ]
        .map((name) => name?.trim() ?? "")
        .find((name) => name.length > 0);
    };
    return [...document.querySelectorAll(selector)]
      .filter((element) => !nameOf(element))
      .map((element) => element.outerHTML.slice(0, 160));
  });
}

describe.skipIf(!browserPath)("the built page", () => {
  it("carries the app's Content Security Policy, which blocks network access from the renderer", async () => {
    const html = await host.indexHtml();
    const page = await open(views.active);
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
    expect(html).not.toMatch(/<script>(?!<\/script>)/); // no inline script
    const fetched = await page.evaluate(() =>
      fetch(`${location.origin}/index.html`).then(
        () => "allowed",
        () => "blocked",
      ),
    );
    expect(fetched).toBe("blocked");
    await page.context().close();
  });
});

describe.skipIf(!browserPath)("first run", () => {
  it("offers the file dialog and the paste-a-key form, and shows why a fetch was refused", async () => {
    const page = await open(views.firstRun, {
      answers: {
        fetchLicense: {
          ok: false,
          error: {
            code: "license.key_mismatch",
            message: "The downloaded file is the license of another key",
          },
        },
      },
    });
    await expect(page.getByRole("heading", { name: "Activate Acme Editor" }).isVisible()).resolves.toBe(true);
    expect(await page.getByText("https://licensing.example.com").isVisible()).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "first-run");

    await page.getByRole("button", { name: "Choose license file…" }).click();
    await page.getByLabel("License key").fill("SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D");
    await page.getByLabel("License file address").fill("https://licenses.example.com/{licenseKey}.lic");
    await page.getByRole("button", { name: "Fetch license file" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("the license of another key");
    expect(await calls(page)).toEqual([
      { method: "chooseLicenseFile", args: [] },
      {
        method: "fetchLicense",
        args: [
          {
            licenseKey: "SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D",
            url: "https://licenses.example.com/{licenseKey}.lic",
          },
        ],
      },
    ]);

    // The main process installs the license and pushes the new view: the app leaves the first-run screen.
    await push(page, views.active);
    await page.getByTestId("status-badge").waitFor();
    expect(await page.getByRole("heading", { name: "Activate Acme Editor" }).count()).toBe(0);
    await page.context().close();
  });
});

describe.skipIf(!browserPath)("an Active license", () => {
  it("shows status, reason, terms, marker, fingerprint and its sources, and unlocks export", async () => {
    const page = await open(views.active);
    expect(await page.getByTestId("status-badge").textContent()).toBe("Active");
    expect(await page.getByTestId("status-reason").textContent()).toContain("marker-valid");
    const license = await page.getByTestId("license-table").textContent();
    expect(license).toContain("EDITOR");
    expect(license).toContain("export");
    expect(license).toContain("maxProjects: 5");
    expect(license).toContain("30 Nov 2026"); // the marker's expiry
    expect(await page.getByTestId("fingerprint").textContent()).toBe(views.active.fingerprint!.value);
    expect(await page.getByTestId("fingerprint-sources").textContent()).toContain("windows 11");
    expect(await page.getByTestId("project-limit").textContent()).toBe("Projects: up to 5");
    expect(await page.getByTestId("export-button").isEnabled()).toBe(true);
    expect(await page.getByTestId("qa-panel").count()).toBe(0);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "active");

    await page.getByRole("button", { name: "Deactivate this machine" }).click();
    await page.getByRole("button", { name: "Check in now" }).click();
    await expect
      .poll(() => calls(page))
      .toEqual([
        { method: "deactivate", args: [] },
        { method: "heartbeat", args: [] },
      ]);
    await page.context().close();
  });

  it("a license without the export feature keeps export locked and says why", async () => {
    const view: LicenseView = {
      ...views.active,
      license: { ...views.active.license!, features: [] },
      gating: { exportUnlocked: false, maxProjects: 5 },
    };
    const page = await open(view);
    expect(await page.getByTestId("export-button").isDisabled()).toBe(true);
    expect(await page.getByTestId("export-lock").textContent()).toBe(
      "Locked: your license does not include export.",
    );
    await page.context().close();
  });
});

describe.skipIf(!browserPath)("GracePeriod", () => {
  it("counts down to the end of the grace period, and the pushed Expired view locks the app", async () => {
    const page = await open(views.grace, { clockAt: views.grace.at });
    expect(await page.getByTestId("status-badge").textContent()).toBe("Grace period");
    const countdown = page.getByTestId("grace-countdown");
    expect(await countdown.textContent()).toContain("Grace period ends in 23 h 00 min 00 s");
    await screenshot(page, "grace-period");
    await page.clock.fastForward(61_000);
    expect(await countdown.textContent()).toContain("Grace period ends in 22 h 58 min 59 s");
    expect(await page.getByTestId("export-button").isEnabled()).toBe(true);

    await push(page, views.expired);
    await expect.poll(() => page.getByTestId("status-badge").textContent(), PATIENCE).toBe("Expired");
    expect(await countdown.count()).toBe(0);
    await page.context().close();
  });
});

describe.skipIf(!browserPath)("Expired", () => {
  it("locks the export feature and the project limit, with the reason", async () => {
    const page = await open({ ...views.expired, qa: { ...views.expired.qa, enabled: false } });
    expect(await page.getByTestId("status-badge").textContent()).toBe("Expired");
    expect(await page.getByTestId("status-reason").textContent()).toContain("grace-ended");
    expect(await page.getByTestId("locked-banner").isVisible()).toBe(true);
    expect(await page.getByTestId("export-button").isDisabled()).toBe(true);
    expect(await page.getByTestId("export-lock").textContent()).toBe("Locked: the license is Expired.");
    expect(await page.getByTestId("project-limit").textContent()).toBe("Projects: unavailable");
    expect(await page.getByTestId("license-table").textContent()).toContain("network.error");
    await screenshot(page, "expired");
    await page.context().close();
  });
});

describe.skipIf(!browserPath)("the QA panel", () => {
  it("switches the network, moves the clock, restarts the client and shows a scenario's timeline", async () => {
    const timeline: ScenarioRun = {
      name: "Offline past the marker, then grace, then expired",
      passed: true,
      error: null,
      entries: [
        { kind: "setup", line: null, step: "issue and download the license", elapsedMs: 0 },
        {
          kind: "step",
          line: 9,
          step: "start",
          elapsedMs: 0,
          status: "Active",
          detail: "initialize() → true",
        },
        { kind: "step", line: 10, step: "offline", elapsedMs: 0, status: "Active" },
        { kind: "step", line: 11, step: "advance 7d1h", elapsedMs: 7 * DAY + HOUR, status: "GracePeriod" },
        {
          kind: "transition",
          line: null,
          step: "Active → GracePeriod",
          elapsedMs: 7 * DAY,
          status: "GracePeriod",
        },
        {
          kind: "step",
          line: 12,
          step: "expect status GracePeriod",
          elapsedMs: 7 * DAY + HOUR,
          status: "GracePeriod",
        },
        { kind: "step", line: 13, step: "advance 1d", elapsedMs: 8 * DAY + HOUR, status: "Expired" },
      ].map((entry) => ({
        status: null,
        detail: null,
        ok: true,
        at: views.active.at + entry.elapsedMs,
        ...entry,
      })) as ScenarioRun["entries"],
    };
    const page = await open(withQa(views.active), { answers: { "qa.runScenario": timeline } });
    const panel = page.getByTestId("qa-panel");
    expect(await panel.isVisible()).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);

    await panel.getByText("Offline", { exact: true }).click();
    await panel.getByText("Server fails (503)").click();
    await panel.getByRole("button", { name: "+1 hour" }).click();
    await panel.getByRole("button", { name: "+1 day" }).click();
    await panel.getByLabel("Amount").fill("36");
    await panel.getByLabel("Unit").click();
    await page.getByRole("option", { name: "hours" }).click();
    await panel.getByRole("button", { name: "Advance", exact: true }).click();
    await panel.getByRole("button", { name: "Reset clock" }).click();
    await panel.getByRole("button", { name: "Restart client" }).click();
    await panel.getByRole("button", { name: "Run scenario file…" }).click();
    await page.getByTestId("scenario-timeline").waitFor();
    expect(await calls(page)).toEqual([
      { method: "qa.setNetwork", args: ["offline"] },
      { method: "qa.setNetwork", args: ["server-error"] },
      { method: "qa.advanceClock", args: [HOUR] },
      { method: "qa.advanceClock", args: [DAY] },
      { method: "qa.advanceClock", args: [36 * HOUR] },
      { method: "qa.resetClock", args: [] },
      { method: "qa.restart", args: [] },
      { method: "qa.runScenario", args: [] },
    ]);
    const rows = page.getByTestId("scenario-timeline").locator("tbody tr");
    expect(await rows.count()).toBe(7);
    expect(await rows.nth(3).textContent()).toBe("11+7 d 1 hadvance 7d1hGracePeriodok");
    expect(await rows.nth(4).textContent()).toContain("Active → GracePeriod");
    expect(await page.getByTestId("scenario-timeline").textContent()).toContain("passed");

    // The main process answers with the new state: offline, clock moved.
    await push(page, views.grace);
    await expect.poll(() => page.getByTestId("clock-offset").textContent(), PATIENCE).toBe("+7 d 1 h");
    expect(await panel.getByRole("radio", { name: "Offline" }).isChecked()).toBe(true);
    await screenshot(page, "qa-panel");
    await page.context().close();
  });

  it("shows a refused lever's error", async () => {
    const page = await open(withQa(views.active), {
      answers: {
        "qa.restart": {
          ok: false,
          error: { code: "license.not_installed", message: "No license is installed yet" },
        },
      },
    });
    await page.getByRole("button", { name: "Restart client" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("No license is installed yet");
    await page.context().close();
  });
});

describe.skipIf(!browserPath)("refused activations", () => {
  it("seat limit: lists the machines, least recently seen first, and frees the one confirmed", async () => {
    const view = views.seatLimit;
    // The page's clock runs (the dialog's transitions need it): ages are shown to the minute at most.
    const page = await open(view, {
      answers: {
        freeSeat: {
          ok: false,
          error: {
            code: "seat.not_taken",
            message:
              "The seat was freed, but another machine took it first: free another one, or try again later",
          },
        },
      },
    });
    await page.getByRole("heading", { name: "Seat limit reached" }).waitFor();
    expect(await page.getByTestId("status-badge").textContent()).toBe("Expired");
    expect(await page.getByText("All 3 seats of this license are in use").isVisible()).toBe(true);
    const rows = page.getByTestId("seat-machine");
    expect(await rows.allTextContents()).toEqual([
      "design-laptop-03" + "13 Oct 2026, 09:0016 Oct 2026, 09:0038 days ago" + "Free this seat",
      "Unnamed machine" + "20 Nov 2026, 09:0020 Nov 2026, 09:00not since it activated" + "Free this seat",
      "OFFICE-PC-12" + "31 Aug 2026, 09:0023 Nov 2026, 08:4020 min ago" + "Free this seat",
    ]);
    expect(await page.getByTestId("status-reason").textContent()).toContain("activation.seat_limit_reached");
    expect(await page.getByTestId("export-button").count()).toBe(0);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "seat-limit");

    // Cancelled: nothing is freed.
    await page.getByRole("button", { name: "Free this seat: design-laptop-03" }).click();
    const dialog = page.getByRole("dialog", { name: "Free the seat of design-laptop-03?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("design-laptop-03 loses its seat");
    expect(await unlabelledControls(page)).toEqual([]);
    await expect.poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity)).toBe("1");
    await screenshot(page, "seat-limit-confirm");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await calls(page)).toEqual([]);

    // Confirmed: the seat id goes to the main process; its refusal is shown.
    await page.getByRole("button", { name: "Free this seat: Unnamed machine" }).click();
    await page.getByRole("dialog", { name: "Free the seat of Unnamed machine?" }).waitFor();
    await page.getByRole("button", { name: "Free the seat", exact: true }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("another machine took it first");
    expect(await calls(page)).toEqual([
      { method: "freeSeat", args: [view.machines!.find((m) => m.name === null)!.seatId] },
    ]);

    await page.getByRole("button", { name: "Check again" }).click();
    await expect.poll(() => calls(page)).toContainEqual({ method: "heartbeat", args: [] });

    // The main process frees another seat and pushes the Active view: the usual screen is back.
    await push(page, views.active);
    await expect.poll(() => page.getByTestId("status-badge").textContent(), PATIENCE).toBe("Active");
    expect(await page.getByRole("heading", { name: "Seat limit reached" }).count()).toBe(0);
    await page.context().close();
  });

  it("no free seat (a floating license): who holds the seats since and until when, and the wait", async () => {
    const page = await open(views.noSeat, { clockAt: views.noSeat.at });
    await page.getByRole("heading", { name: "No free seat" }).waitFor();
    const rows = await page.getByTestId("seat-holders").locator("tbody tr").allTextContents();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain("OFFICE-PC-12");
    expect(rows[1]).toContain("Unnamed computer");
    const retryAt = page.getByTestId("retry-at");
    expect(await retryAt.textContent()).toMatch(/^Trying again at 23 Nov 2026, 09:10, in \d+ min \d\d s$/);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "no-seat");
    // The seat frees and this app takes it: the main process pushes the Active view.
    await push(page, views.active);
    await expect.poll(() => page.getByTestId("status-badge").textContent(), PATIENCE).toBe("Active");
    expect(await page.getByRole("heading", { name: "No free seat" }).count()).toBe(0);
    await page.context().close();
  });

  it("device budget: says when the app activates on its own, counting down", async () => {
    const page = await open(views.deviceBudget, { clockAt: views.deviceBudget.at });
    await page.getByRole("heading", { name: "Too many new computers" }).waitFor();
    const retryAt = page.getByTestId("retry-at");
    expect(await retryAt.textContent()).toBe("Activates on 5 Dec 2026, 09:00, in 12 d 00 h 00 min");
    expect(await page.getByText("Your vendor can lift the limit sooner").isVisible()).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);
    await screenshot(page, "device-budget");
    await page.clock.fastForward(61_000);
    expect(await retryAt.textContent()).toBe("Activates on 5 Dec 2026, 09:00, in 11 d 23 h 58 min");
    await page.getByRole("button", { name: "Check again" }).click();
    await expect.poll(() => calls(page)).toEqual([{ method: "heartbeat", args: [] }]);
    await page.context().close();
  });

  it("a license no longer active, or bound to another computer: who can help, and a new license file", async () => {
    for (const [view, heading, install] of [
      [views.licenseNotActive, "License not active", "Install another license file…"],
      [views.deviceChanged, "License bound to another computer", "Install the new license file…"],
    ] as const) {
      const page = await open(view);
      await page.getByRole("heading", { name: heading }).waitFor();
      expect(await page.getByText("vendor").isVisible()).toBe(true);
      expect(await page.getByTestId("status-reason").textContent()).toContain(
        view.connection.lastError!.code,
      );
      expect(await unlabelledControls(page)).toEqual([]);
      await page.getByRole("button", { name: install }).click();
      await page.getByRole("button", { name: "Check again" }).click();
      await expect
        .poll(() => calls(page))
        .toEqual([
          { method: "chooseLicenseFile", args: [] },
          { method: "heartbeat", args: [] },
        ]);
      await page.context().close();
    }
  });
});

describe.skipIf(!browserPath)("activate without internet", () => {
  const setAnswer = (page: Page, method: string, answer: unknown) =>
    page.evaluate(
      ([m, a]) => {
        (window as unknown as { __stub: { answers: Record<string, unknown> } }).__stub.answers[m as string] =
          a;
      },
      [method, answer] as const,
    );

  it("shows the request as text and QR code, takes the vendor's response, and says why one was refused", async () => {
    const page = await open(views.airGapped, {
      answers: {
        "offline.applyResponse": {
          ok: false,
          error: {
            code: "offline.response_refused",
            message:
              "This response was made for another computer: give your vendor the request shown here (other-machine)",
          },
        },
      },
    });
    expect(await page.getByTestId("status-reason").textContent()).toContain("Not activated on this computer");
    await page.getByRole("button", { name: "Activate without internet…" }).click();
    await page.getByRole("heading", { name: "Activate without internet" }).waitFor();
    await page.getByRole("button", { name: "Make the activation request" }).click();
    await expect.poll(() => calls(page)).toEqual([{ method: "offline.createRequest", args: [] }]);

    // The main process made the request and pushes it, with its QR code.
    await push(page, views.offlineRequested);
    const qr = page.getByRole("img", { name: "QR code of the activation request" });
    await qr.waitFor();
    // An image the CSP lets through (img-src data:): it loaded and has a size.
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), PATIENCE)
      .toBe(true);
    expect(await page.getByLabel("Activation request").inputValue()).toBe(
      views.offlineRequested.offline.request!.text,
    );
    expect(await page.getByRole("button", { name: "Activate", exact: true }).isDisabled()).toBe(true);
    expect(await unlabelledControls(page)).toEqual([]);

    await page.getByRole("button", { name: "Copy request" }).click();
    await page.getByRole("status").filter({ hasText: "Copied to the clipboard" }).waitFor();
    await page.getByRole("button", { name: "Save as file…" }).click();
    await page.getByRole("button", { name: "Make a new request" }).click();
    const response =
      "-----BEGIN LICENSE ACTIVATION-----\neyJhbGciOiJFZERTQSJ9.e30.c2ln\n-----END LICENSE ACTIVATION-----";
    await page.getByLabel("Activation response").fill(response);
    await page.getByRole("button", { name: "Activate", exact: true }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("made for another computer");
    expect(await page.getByRole("heading", { name: "Activate without internet" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Load response file…" }).click();
    await expect
      .poll(() => calls(page))
      .toEqual([
        { method: "offline.createRequest", args: [] },
        { method: "offline.copy", args: ["request"] },
        { method: "offline.save", args: ["request"] },
        { method: "offline.createRequest", args: [] },
        { method: "offline.applyResponse", args: [response] },
        { method: "offline.chooseResponseFile", args: [] },
      ]);

    // Accepted: the main process pushes the Active view, and the screen gives way to it.
    await setAnswer(page, "offline.applyResponse", { ok: true });
    await page.getByRole("button", { name: "Activate", exact: true }).click();
    await expect.poll(() => calls(page).then((c) => c.length)).toBe(7);
    await push(page, views.offlineActivated);
    await page.getByRole("heading", { name: "Activate without internet" }).waitFor({ state: "hidden" });
    await expect.poll(() => page.getByTestId("status-badge").textContent(), PATIENCE).toBe("Active");
    expect(await page.getByTestId("status-reason").textContent()).toContain(
      "Activated without internet · offline-activated",
    );
    expect(await page.getByTestId("next-transition").textContent()).toBe(
      "Activated without internet until 23 Dec 2026, 09:00: then Expired, with no grace period. Ask your vendor for a new activation before then.",
    );
    expect(await page.getByTestId("license-table").textContent()).toContain(
      "Activated without internet until23 Dec 2026, 09:00",
    );
    expect(await page.getByTestId("export-button").isEnabled()).toBe(true);
    // It never contacts the server: no check-in, no online deactivation, no offline activation offered.
    for (const name of ["Check in now", "Deactivate this machine", "Activate without internet…"])
      expect(await page.getByRole("button", { name }).count()).toBe(0);
    expect(await unlabelledControls(page)).toEqual([]);
    await page.context().close();
  });

  it("deactivates offline after a confirmation, then shows the receipt until it was handed in", async () => {
    const page = await open(views.offlineActivated);
    await page.getByRole("button", { name: "Deactivate offline…" }).click();
    const dialog = page.getByRole("dialog", { name: "Deactivate Acme Editor on this computer?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("It cannot be made again");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await calls(page)).toEqual([]);
    await page.getByRole("button", { name: "Deactivate offline…" }).click();
    await dialog.getByRole("button", { name: "Deactivate offline" }).click();
    await expect.poll(() => calls(page)).toEqual([{ method: "offline.deactivate", args: [] }]);

    await push(page, views.offlineReceipt);
    const card = page.locator("[aria-labelledby=receipt-title]");
    await card.getByLabel("Deactivation receipt").waitFor();
    expect(await card.getByLabel("Deactivation receipt").inputValue()).toBe(
      views.offlineReceipt.offline.receipt,
    );
    expect(await page.getByTestId("status-badge").textContent()).toBe("Expired");
    expect(await unlabelledControls(page)).toEqual([]);
    await card.getByRole("button", { name: "Copy receipt" }).click();
    await card.getByRole("button", { name: "Save as file…" }).click();
    await card.getByRole("button", { name: "It was handed in: stop showing it" }).click();
    await expect
      .poll(() => calls(page))
      .toEqual([
        { method: "offline.deactivate", args: [] },
        { method: "offline.copy", args: ["receipt"] },
        { method: "offline.save", args: ["receipt"] },
        { method: "offline.forgetReceipt", args: [] },
      ]);
    await push(page, {
      ...views.offlineReceipt,
      offline: { ...views.offlineReceipt.offline, receipt: null },
    });
    await card.waitFor({ state: "detached" });
    await page.context().close();
  });

  it("shows no image for a QR code that is not an SVG data URL", async () => {
    const view: LicenseView = {
      ...views.offlineRequested,
      offline: {
        ...views.offlineRequested.offline,
        request: { text: views.offlineRequested.offline.request!.text, qrCode: "javascript:alert(1)" },
      },
    };
    const page = await open(view);
    await page.getByRole("button", { name: "Activate without internet…" }).click();
    await page.getByLabel("Activation request").waitFor();
    expect(await page.locator("img").count()).toBe(0);
    await page.context().close();
  });
});
