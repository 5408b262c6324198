import { join } from "node:path";
import { findOnPath, isExecutable, type Lookup } from "./executables.ts";

/** The variables that name a browser, in the order they are read. */
export const BROWSER_VARIABLES = ["CHROMIUM_PATH", "CHROME_PATH"] as const;
/** The commands that start Chromium or Chrome on Linux (and elsewhere when on PATH). */
export const BROWSER_COMMANDS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** Where Chromium and Chrome install themselves on macOS and Windows, most specific first. */
export function installedBrowserPaths(lookup: Lookup = {}): string[] {
  const env = lookup.env ?? process.env;
  const platform = lookup.platform ?? process.platform;
  if (platform === "darwin") {
    const bundles = [
      "Chromium.app/Contents/MacOS/Chromium",
      "Google Chrome.app/Contents/MacOS/Google Chrome",
    ];
    const roots = ["/Applications", ...(env.HOME ? [join(env.HOME, "Applications")] : [])];
    return roots.flatMap((root) => bundles.map((bundle) => `${root}/${bundle}`));
  }
  if (platform === "win32") {
    const roots = [env.LOCALAPPDATA, env.PROGRAMFILES, env["PROGRAMFILES(X86)"]].filter(
      (root): root is string => !!root,
    );
    const apps = ["Chromium\\Application\\chrome.exe", "Google\\Chrome\\Application\\chrome.exe"];
    return roots.flatMap((root) => apps.map((app) => `${root}\\${app}`));
  }
  return [];
}

/**
 * A Chromium or Chrome that playwright-core can drive, where people have one: `CHROMIUM_PATH` or
 * `CHROME_PATH`, then `chromium`, `chromium-browser`, `google-chrome` on PATH, then the macOS application
 * bundles and the Windows installations. Null when there is none. A variable that names no executable is
 * a mistake, not an absence: it throws.
 */
export function findBrowser(lookup: Lookup = {}): string | null {
  const env = lookup.env ?? process.env;
  const executable = lookup.isExecutable ?? isExecutable;
  for (const variable of BROWSER_VARIABLES) {
    const path = env[variable];
    if (!path) continue;
    if (!executable(path)) throw new Error(`${variable}=${path} is not an executable file`);
    return path;
  }
  return (
    findOnPath(BROWSER_COMMANDS, lookup) ?? installedBrowserPaths(lookup).find((p) => executable(p)) ?? null
  );
}
