import type { BrowserWindowConstructorOptions } from "electron";

/**
 * The renderer's Content Security Policy: only the app's own scripts, no network, no plugins, no frames.
 * `style-src 'unsafe-inline'` is for Mantine, which writes its theme variables into <style> elements.
 * It is written into index.html as a <meta> at build time (vite.config.ts) and sent as a header too.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The renderer's web preferences: isolated, sandboxed, no Node, nothing remote. */
const securePreferences = (preload: string) =>
  ({
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  }) satisfies BrowserWindowConstructorOptions["webPreferences"];

/**
 * Every window the app creates, by name: `main.ts` builds each `BrowserWindow` from here and nowhere else,
 * so the security test reads the options of all of them without Electron.
 */
export const APP_WINDOWS = {
  main: (preload: string): BrowserWindowConstructorOptions => ({
    width: 1180,
    height: 860,
    minWidth: 900,
    minHeight: 640,
    title: "Acme Editor (licensing sample)",
    show: false,
    backgroundColor: "#ffffff",
    webPreferences: securePreferences(preload),
  }),
} as const;

/** Navigation stays on the app's own page: any other address (remote or another file) is refused. */
export function isAllowedNavigation(target: string, appPage: string): boolean {
  if (!URL.canParse(target) || !URL.canParse(appPage)) return false;
  const to = new URL(target);
  const page = new URL(appPage);
  return to.protocol === page.protocol && to.host === page.host && to.pathname === page.pathname;
}
