import { createServer, type Server } from "node:http";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { build } from "vite";

/**
 * The renderer as built for Electron (Vite), served over local HTTP and opened in Chromium (Debian's, through
 * playwright-core: no browser download). The page needs a `window.licensing` injected before its scripts:
 * the bridge stub, or the main process over Playwright (`app-window.ts`).
 */
const appDir = fileURLToPath(new URL("../..", import.meta.url));
const screenshotDir = fileURLToPath(new URL("../../../../docs/screenshots", import.meta.url));
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

export interface RendererHost {
  /** The built `index.html` (its text), to check what Electron would load. */
  indexHtml(): Promise<string>;
  /** The app's page; the main process would check a sender frame against it. */
  pageUrl: string;
  browser: Browser;
  /** A page of 1280×900, en-GB, UTC, the app's page not yet loaded. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function startRendererHost(browserPath: string): Promise<RendererHost> {
  const outDir = await mkdtemp(join(tmpdir(), "desktop-renderer-"));
  await build({
    configFile: join(appDir, "vite.config.ts"),
    build: { outDir, emptyOutDir: true },
    logLevel: "error",
  });
  const server: Server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, "http://x").pathname)).replace(
      /^(\.\.[/\\])+/,
      "",
    );
    try {
      const body = await readFile(join(outDir, path === "/" ? "index.html" : path));
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "text/html" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const browser = await chromium.launch({
    executablePath: browserPath,
    headless: true,
    args: ["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
  });
  return {
    indexHtml: () => readFile(join(outDir, "index.html"), "utf8"),
    pageUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`,
    browser,
    async newPage() {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale: "en-GB",
        timezoneId: "UTC",
      });
      const page = await context.newPage();
      page.setDefaultTimeout(8000);
      return page;
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
      await rm(outDir, { recursive: true, force: true });
    },
  };
}

/** With UPDATE_SCREENSHOTS=1, writes the page to docs/screenshots/desktop-<name>.png. */
export async function screenshot(page: Page, name: string) {
  if (!process.env.UPDATE_SCREENSHOTS) return;
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `desktop-${name}.png`), fullPage: true });
}
