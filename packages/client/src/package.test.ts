import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSdkTestServer, type SdkTestServer } from "../testing/index.ts";

/**
 * The published package, as a customer gets it: `npm pack` (whose prepack builds it), installed into an
 * empty project, and the README's quick start run there against the real server.
 */
const run = promisify(execFile);
const packageDir = new URL("..", import.meta.url).pathname;
// The test runs under npm and vitest; the child npm gets none of the parent's npm settings but its cache.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.startsWith("npm_") || key === "npm_config_cache"),
);

let server: SdkTestServer;
let project: string;
beforeAll(async () => {
  server = await startSdkTestServer();
  project = await mkdtemp(join(tmpdir(), "licensing-pack-"));
}, 240_000);
afterAll(async () => {
  await server?.close();
  await rm(project, { recursive: true, force: true });
});

describe("npm pack of @licensing/client", () => {
  it(
    "installs into an empty project, and the README's quick start runs there",
    { timeout: 240_000 },
    async () => {
      const packed = await run("npm", ["pack", "--json", "--pack-destination", project], {
        cwd: packageDir,
        env,
      });
      const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as Array<{
        filename: string;
        files: Array<{ path: string }>;
      }>;
      const files = tarball!.files.map((f) => f.path);
      expect(files).toEqual(
        expect.arrayContaining([
          "package.json",
          "README.md",
          "LICENSE",
          "dist/index.js",
          "dist/index.cjs",
          "dist/core.d.ts",
        ]),
      );
      expect(
        files.filter((f) => !f.startsWith("dist/") && !["package.json", "README.md", "LICENSE"].includes(f)),
      ).toEqual([]);

      await writeFile(
        join(project, "package.json"),
        JSON.stringify({ name: "customer-app", private: true, type: "module" }),
      );
      await run(
        "npm",
        ["install", "--no-audit", "--no-fund", "--prefer-offline", join(project, tarball!.filename)],
        {
          cwd: project,
          env,
        },
      );
      const installed = join(project, "node_modules/@licensing/client");
      const manifest = JSON.parse(await readFile(join(installed, "package.json"), "utf8"));
      expect(manifest.version).toBe("1.0.0");
      expect(manifest.license).toBe("Apache-2.0");
      expect(await readFile(join(installed, "LICENSE"), "utf8")).toContain("Apache License");
      expect(Object.keys(manifest.dependencies)).toEqual(["@noble/ed25519"]);
      for (const types of ["dist/index.d.ts", "dist/core.d.ts", "dist/index.d.cts"]) {
        expect(await readFile(join(installed, types), "utf8"), types).not.toMatch(
          /from ["'](@licensing\/|zod)/,
        );
      }

      // Both module systems load it.
      const cjs = await run(
        process.execPath,
        [
          "-e",
          "const c = require('@licensing/client'); const k = require('@licensing/client/core'); console.log(typeof c.LicenseClient, typeof k.deriveStatus)",
        ],
        { cwd: project },
      );
      expect(cjs.stdout.trim()).toBe("function function");

      const onDisk = await server.licenseOnDisk({
        config: JSON.stringify({ features: ["export"], limits: {} }),
      });
      const readme = await readFile(join(packageDir, "README.md"), "utf8");
      const block = /<!-- quick-start -->\s*```js\n([\s\S]*?)```/.exec(readme)![1]!;
      expect(block.split("\n").filter((line) => line.trim())).toHaveLength(10);
      const script = block
        .replace("https://licensing.example.com", server.app.url)
        .replace("./SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D.lic", onDisk.path)
        .replace(
          "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
          onDisk.license.publicKey,
        );
      await writeFile(join(project, "quick-start.js"), script);
      const result = await run(process.execPath, ["quick-start.js"], { cwd: project });
      expect(result.stdout.trim().split("\n")).toEqual([
        "license: Invalid -> Active",
        "Active marker-valid true",
      ]);
      const activations = await server.admin.api.activations.list({ params: { id: onDisk.license.id } });
      expect(activations.body).toMatchObject([{ status: "deactivated" }]);
    },
  );
});
