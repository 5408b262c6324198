// Builds dist/: ESM and CommonJS of both entries, and their type declarations (once, for both formats).
import { copyFile, rm } from "node:fs/promises";
import { chdir, stdout } from "node:process";
import { fileURLToPath, URL } from "node:url";
import { build } from "tsup";

chdir(fileURLToPath(new URL(".", import.meta.url)));

const entry = { index: "src/index.ts", core: "src/core.ts" };
const shared = {
  config: false,
  entry,
  target: "es2022",
  platform: "node",
  sourcemap: true,
  treeshake: true,
  silent: true,
  // The protocol is bundled: the package needs no workspace package at run time.
  noExternal: ["@licensing/protocol"],
};

await rm("dist", { recursive: true, force: true });
await Promise.all([
  build({
    ...shared,
    format: ["esm"],
    // The protocol's types (a token's claims, a marker's payload) are written into the declarations too:
    // reached by this path, and not through node_modules, the protocol's sources count as the package's own.
    dts: {
      compilerOptions: {
        paths: {
          "@licensing/protocol": ["../protocol/src/index.ts"],
          "@licensing/protocol/offline": ["../protocol/src/offline.ts"],
        },
      },
    },
    external: ["@noble/ed25519", "qr"],
  }),
  // @noble/ed25519 is ESM only: bundled into the CommonJS build, `require` works on every Node and Electron.
  build({ ...shared, format: ["cjs"], noExternal: [...shared.noExternal, "@noble/ed25519", "qr"] }),
]);
// The declarations hold named exports only, so one file serves `import` and `require` alike.
await Promise.all(
  Object.keys(entry).map((name) =>
    copyFile(
      new URL(`./dist/${name}.d.ts`, import.meta.url),
      new URL(`./dist/${name}.d.cts`, import.meta.url),
    ),
  ),
);
stdout.write("@licensing/client: dist/ built\n");
