import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { bundles } from "../../build.ts";

const appDir = new URL("../../", import.meta.url);
// electron-builder's own validator, resolved through electron-builder so it is the version it runs.
const fromBuilder = createRequire(createRequire(appDir).resolve("electron-builder"));
const { validateConfiguration } = fromBuilder("app-builder-lib/out/util/config/config.js") as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = createRequire(fromBuilder.resolve("app-builder-lib"))("builder-util") as {
  DebugLogger: new (enabled: boolean) => unknown;
};

describe("electron-builder configuration", async () => {
  const config = parse(await readFile(new URL("electron-builder.yml", appDir), "utf8"));
  const pkg = JSON.parse(await readFile(new URL("package.json", appDir), "utf8"));

  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...config, win: { nope: 1 } }, new DebugLogger(false)),
    ).rejects.toThrow(/configuration\.win/);
  });

  it("packages for Windows, macOS and Linux, with the bundles the app starts from", () => {
    expect(Object.keys(config)).toEqual(expect.arrayContaining(["win", "mac", "linux"]));
    expect(config.win.target.map((t: { target: string }) => t.target)).toContain("nsis");
    expect(config.mac.target.map((t: { target: string }) => t.target)).toContain("dmg");
    expect(config.linux.target).toEqual(expect.arrayContaining(["AppImage", "deb"]));
    expect(pkg.main).toBe(bundles.main.outfile);
    expect(config.files).toEqual(
      expect.arrayContaining(["dist/main/**", "dist/preload/**", "dist/renderer/**"]),
    );
    expect(config.electronFuses).toMatchObject({ runAsNode: false, enableNodeCliInspectArguments: false });
  });
});
