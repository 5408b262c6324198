import { builtinModules } from "node:module";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { bundles } from "../../build.ts";

/** What a bundle still `require`s at run time: everything else was bundled in. */
async function requiresOf(options: (typeof bundles)[keyof typeof bundles]) {
  const result = await build({ ...options, write: false, sourcemap: false, logLevel: "silent" });
  const code = result.outputFiles.find((file) => file.path.endsWith(".cjs"))!.text;
  return [...new Set([...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((match) => match[1]!))].sort();
}

describe("the Electron bundles", () => {
  it("the sandboxed preload requires nothing but electron", async () => {
    expect(await requiresOf(bundles.preload)).toEqual(["electron"]);
  });

  it("the main process requires only electron and Node built-ins (nothing left in node_modules)", async () => {
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    const outside = (await requiresOf(bundles.main)).filter(
      (name) => name !== "electron" && !builtins.has(name),
    );
    expect(outside).toEqual([]);
  });
});
