import { rmSync } from "node:fs";
import { defineConfig, type Options } from "tsup";

// Both formats write into dist/; it is emptied once here rather than by each build (they run in parallel).
rmSync(new URL("./dist", import.meta.url), { recursive: true, force: true });

const shared: Options = {
  entry: { index: "src/index.ts", core: "src/core.ts" },
  target: "es2022",
  platform: "node",
  dts: true,
  sourcemap: true,
  treeshake: true,
  // The protocol (and the parts of zod/mini it uses) is bundled: the package needs no workspace package.
  noExternal: ["@licensing/protocol", "@licensing/contracts", "zod"],
};

export default defineConfig([
  { ...shared, format: ["esm"], external: ["@noble/ed25519"] },
  // @noble/ed25519 is ESM only; bundled into the CommonJS build, `require` works on every Node and Electron.
  { ...shared, format: ["cjs"], noExternal: [...(shared.noExternal as string[]), "@noble/ed25519"] },
]);
