import { needTool, tools } from "@licensing/api/testing/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openAppWindow } from "./testing/app-window.ts";
import { startRendererHost, type RendererHost } from "./testing/renderer-host.ts";
import { startDesktopTestServer, type DesktopTestServer } from "./testing/server.ts";

/**
 * The app as a user meets it, without Electron: the renderer in Chromium, the main process's IPC handlers and
 * `LicenseSession`, the SDK, and the real licensing server on an ephemeral port.
 */
const HOUR = 3_600_000;
const browserPath = needTool(tools.browser, "the desktop sample's end-to-end tests");
// expect.poll gives up after one second by default, no bound for a loaded machine; this only bounds a hang.
const PATIENCE = { timeout: 15_000 };

let server: DesktopTestServer;
let host: RendererHost;
beforeAll(async () => {
  server = await startDesktopTestServer();
  if (browserPath) host = await startRendererHost(browserPath);
}, 120_000);
afterAll(async () => {
  await host?.close();
  await server.close();
});

describe.skipIf(!browserPath)("a new computer on a full license", () => {
  it("lists the machines holding the seats; freeing one, confirmed, makes the app Active without a restart", async () => {
    const onDisk = await server.licenseFile({
      config: JSON.stringify({ features: ["export"], limits: { maxSeats: 2, maxProjects: 5 } }),
    });
    // Two other computers take both seats; the office PC checks in later than the laptop activated.
    const office = await server.otherMachine(onDisk, {
      hwFingerprint: "machine-office",
      machineName: "Office PC",
    });
    server.app.clock.advance(HOUR);
    const laptop = await server.otherMachine(onDisk, {
      hwFingerprint: "machine-laptop",
      machineName: "Design laptop",
    });
    server.app.clock.advance(2 * HOUR);
    expect(await office.heartbeat()).toBe(true);
    expect([office.status, laptop.status]).toEqual(["Active", "Active"]);

    const session = await server.session({ machineName: "New workstation" });
    expect(await session.installFile(onDisk.path)).toEqual({ ok: true });
    const page = await openAppWindow(host, session);

    await page.getByRole("heading", { name: "Seat limit reached" }).waitFor();
    expect(await page.getByTestId("status-badge").textContent()).toBe("Expired");
    expect(await page.getByText("Both seats of this license are in use by other machines.").isVisible()).toBe(
      true,
    );
    const rows = page.getByTestId("seat-machine");
    // Least recently seen first: the laptop (activated, no heartbeat since), then the office PC.
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain("Design laptop");
    expect(await rows.nth(0).textContent()).toContain("not since it activated");
    expect(await rows.nth(1).textContent()).toContain("Office PC");
    expect(await rows.nth(1).textContent()).toContain("just now");
    expect(await page.getByTestId("export-button").count()).toBe(0);

    await page.getByRole("button", { name: "Free this seat: Office PC" }).click();
    const dialog = page.getByRole("dialog", { name: "Free the seat of Office PC?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Free the seat" }).click();

    await expect.poll(() => page.getByTestId("status-badge").textContent(), PATIENCE).toBe("Active");
    expect(await page.getByRole("heading", { name: "Seat limit reached" }).count()).toBe(0);
    expect(await page.getByTestId("status-reason").textContent()).toContain("marker-valid");
    expect(await page.getByTestId("export-button").isEnabled()).toBe(true);
    const live = (await server.activations(onDisk.license.id)).filter((a) => a.status === "active");
    expect(live.map((a) => a.hwFingerprint).sort()).toEqual(["machine-a", "machine-laptop"]);

    // The office PC learns it at its next check-in: the license is full again, and it keeps its marker.
    await office.heartbeat();
    expect(office.statusDetails).toMatchObject({
      status: "Active",
      activationId: null,
      lastError: { code: "activation.seat_limit_reached" },
    });
    await page.context().close();
  });
});
