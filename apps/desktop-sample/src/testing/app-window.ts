import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { registerIpc, type MainProcessServices } from "../main/ipc.ts";
import type { LicenseSession } from "../main/license-session.ts";
import { CHANNELS, type LicenseView } from "../shared/bridge.ts";
import type { RendererHost } from "./renderer-host.ts";

type Handler = (event: unknown, ...args: unknown[]) => unknown;

/** `page-ipc.ts` bundled for the page, as the preload is bundled for Electron. */
let pageIpcScript: Promise<string> | null = null;
const bundledPageIpc = () =>
  (pageIpcScript ??= build({
    entryPoints: [fileURLToPath(new URL("page-ipc.ts", import.meta.url))],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "chrome140",
    write: false,
    logLevel: "silent",
  }).then((result) => result.outputFiles[0]!.text));

/**
 * The whole app without Electron: the renderer in Chromium, the main process's IPC handlers
 * (`registerIpc`) over a `LicenseSession`, and between them what Electron's IPC does, through Playwright. Each
 * request carries the calling frame's address, which the handlers check as they check Electron's
 * `senderFrame`; every view the session pushes is sent to the page.
 */
export async function openAppWindow(
  host: RendererHost,
  session: LicenseSession,
  services: Partial<MainProcessServices> = {},
): Promise<Page> {
  const handlers = new Map<string, Handler>();
  registerIpc(
    { handle: (channel, listener) => void handlers.set(channel, listener) },
    session,
    { chooseLicenseFile: async () => null, runScenario: async () => null, ...services },
    host.pageUrl,
  );
  const page = await host.newPage();
  await page.exposeBinding("__ipcInvoke", ({ frame }, channel: string, ...args: unknown[]) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`No handler for ${channel}`);
    return handler({ senderFrame: { url: frame.url() } }, ...args);
  });
  await page.addInitScript({ content: await bundledPageIpc() });
  const unsubscribe = session.onView((view) => {
    // A push while the page loads or after it closed is lost, as with a window that is not there yet.
    page
      .evaluate(
        ({ channel, next }) =>
          (window as unknown as { __ipcEmit(c: string, v: LicenseView): void }).__ipcEmit(channel, next),
        { channel: CHANNELS.view, next: view },
      )
      .catch(() => undefined);
  });
  page.once("close", unsubscribe);
  await page.goto(host.pageUrl);
  await page.getByRole("heading", { name: "Acme Editor", exact: true }).waitFor();
  return page;
}
