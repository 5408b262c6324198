import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { APP_WINDOWS, CONTENT_SECURITY_POLICY, isAllowedNavigation } from "./window-security.ts";

const directives = new Map(
  CONTENT_SECURITY_POLICY.split(";").map((part) => {
    const [name, ...values] = part.trim().split(/\s+/);
    return [name!, values];
  }),
);

describe("every BrowserWindow the app creates", () => {
  it("main.ts builds windows only from APP_WINDOWS", async () => {
    const source = await readFile(new URL("./main.ts", import.meta.url), "utf8");
    const created = source.match(/new BrowserWindow\(/g) ?? [];
    const fromRegistry = source.match(/new BrowserWindow\(APP_WINDOWS\.\w+\(/g) ?? [];
    expect(created.length).toBeGreaterThan(0);
    expect(fromRegistry).toHaveLength(created.length);
  });

  for (const [name, options] of Object.entries(APP_WINDOWS)) {
    it(`${name}: context isolation, sandbox, no Node integration, no webview, web security on`, () => {
      const prefs = options("/app/preload/preload.cjs").webPreferences!;
      expect(prefs.contextIsolation).toBe(true);
      expect(prefs.sandbox).toBe(true);
      expect(prefs.nodeIntegration).toBe(false);
      expect(prefs.nodeIntegrationInWorker).toBe(false);
      expect(prefs.nodeIntegrationInSubFrames).toBe(false);
      expect(prefs.webviewTag).toBe(false);
      expect(prefs.webSecurity).toBe(true);
      expect(prefs.allowRunningInsecureContent).toBe(false);
      expect(prefs.experimentalFeatures).toBe(false);
      expect(prefs.preload).toBe("/app/preload/preload.cjs");
    });
  }
});

describe("the Content Security Policy", () => {
  it("allows only the app's own scripts, no eval, no inline script, no network and no frames", () => {
    expect(directives.get("default-src")).toEqual(["'none'"]);
    expect(directives.get("script-src")).toEqual(["'self'"]);
    expect(directives.get("connect-src")).toEqual(["'none'"]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("frame-src")).toEqual(["'none'"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
    for (const values of directives.values()) {
      expect(values).not.toContain("'unsafe-eval'");
      expect(values.some((value) => /^(https?:|\*|ws)/.test(value))).toBe(false);
    }
  });

  it("the renderer's build writes it into index.html from this constant (the built page is checked in renderer.test.ts)", async () => {
    const config = await readFile(new URL("../../vite.config.ts", import.meta.url), "utf8");
    expect(config).toMatch(/import \{ CONTENT_SECURITY_POLICY \} from "\.\/src\/main\/window-security\.ts"/);
  });
});

describe("navigation", () => {
  const page = "file:///opt/app/resources/app.asar/dist/renderer/index.html";
  it("stays on the app's page: remote sites, other files and other schemes are refused", () => {
    expect(isAllowedNavigation(`${page}#qa`, page)).toBe(true);
    expect(isAllowedNavigation("https://example.com/", page)).toBe(false);
    expect(isAllowedNavigation("file:///etc/passwd", page)).toBe(false);
    expect(isAllowedNavigation("javascript:alert(1)", page)).toBe(false);
    expect(isAllowedNavigation("not a url", page)).toBe(false);
  });
});
