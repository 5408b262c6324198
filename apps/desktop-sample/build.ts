// Builds the app for Electron: the main process and the preload script (esbuild, CommonJS, Electron
// external) and the renderer (Vite), into dist/. `electron .` then starts dist/main/main.cjs.
import { pathToFileURL } from "node:url";
import { build as esbuild, type BuildOptions } from "esbuild";
import { build as vite } from "vite";

const common: BuildOptions = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  external: ["electron"],
  // Workspace packages point this condition at their TypeScript: no separate build of @licensing/client.
  conditions: ["@licensing/source"],
  sourcemap: true,
  logLevel: "warning",
  absWorkingDir: import.meta.dirname,
};

export const bundles = {
  main: { ...common, entryPoints: ["src/main/main.ts"], outfile: "dist/main/main.cjs" },
  // A sandboxed preload may require only `electron`: everything else is bundled in.
  preload: { ...common, entryPoints: ["src/preload/preload.ts"], outfile: "dist/preload/preload.cjs" },
} satisfies Record<string, BuildOptions>;

export async function buildApp() {
  await Promise.all(Object.values(bundles).map((options) => esbuild(options)));
  await vite({ configFile: `${import.meta.dirname}/vite.config.ts`, logLevel: "warn" });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildApp();
