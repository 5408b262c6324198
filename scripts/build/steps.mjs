// @ts-check
// What `npm start` builds before it runs, in order. Each step names its inputs and its output; a step runs
// when its output is missing or its inputs changed (build-if-stale.mjs). Add a step here for anything else
// the server needs built.
import { existsSync, realpathSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join } from "node:path";
import { root, writeWhole } from "./build-if-stale.mjs";

const serverPackages = ["protocol", "config-types", "contracts", "db", "core", "api"];
const isTest = (/** @type {string} */ file) => /\.test\.ts$/.test(file) || file.includes("/testing/");

/** The folder of the package `name` that Node would load from `fromDir`, or null. */
function findPackage(name, fromDir) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    if (dirname(dir) === dir) return null;
  }
}

/**
 * npm dependencies stay imports that Node resolves at run time, except where a workspace package has its
 * own copy (e.g. packages/core/node_modules/ajv, a major version the root does not have): the bundle's
 * folder would find the other copy, so that one is bundled.
 * @param {string} outDir
 * @returns {import("esbuild").Plugin}
 */
function externalWhereNodeFindsTheSame(outDir) {
  return {
    name: "external-npm-packages",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("@licensing/")) return undefined;
        if (args.path.startsWith("node:") || builtinModules.includes(args.path))
          return { path: args.path, external: true };
        const parts = args.path.split("/");
        const name = args.path.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
        const here = findPackage(name, args.resolveDir);
        return here && here === findPackage(name, outDir) ? { path: args.path, external: true } : undefined;
      });
    },
  };
}

/**
 * What the server step writes: the server, and the master-key rotation (`npm run rotate-master-key`), which
 * runs without the server but needs the same packages. Compiled, so neither needs a devDependency to run.
 */
export const serverBuild = {
  main: "apps/server/dist/main.js",
  rotateMasterKey: "apps/server/dist/rotate-master-key.js",
};

/** The server as ES modules: our workspace packages bundled in, every npm dependency left to Node. */
export const serverStep = {
  name: "server",
  inputs: [
    "apps/server/src",
    "apps/server/package.json",
    ...serverPackages.flatMap((name) => [`packages/${name}/src`, `packages/${name}/package.json`]),
    "tsconfig.base.json",
    "scripts/build/steps.mjs",
  ],
  ignore: isTest,
  outputs: Object.values(serverBuild),
  async build() {
    const esbuild = await import("esbuild");
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: {
        main: "apps/server/src/main.ts",
        "rotate-master-key": "apps/server/src/rotate-master-key.ts",
      },
      outdir: join(root, dirname(serverBuild.main)),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20.19",
      sourcemap: "linked",
      logLevel: "warning",
      write: false,
      // A bundled CommonJS dependency calls `require` for Node's built-ins.
      banner: {
        js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
      },
      plugins: [externalWhereNodeFindsTheSame(join(root, dirname(serverBuild.main)))],
    });
    // Whole files (see writeWhole): a test may start the server while another one builds it.
    for (const file of result.outputFiles) writeWhole(file.path, file.contents);
  },
};

/** The admin app's static files (decision 0031), which the server serves at `/`. */
export const adminStep = {
  name: "admin",
  inputs: [
    "apps/admin/src",
    "apps/admin/public",
    "apps/admin/index.html",
    "apps/admin/vite.config.ts",
    "apps/admin/package.json",
    "packages/contracts/src",
    "packages/protocol/src",
    "scripts/build/steps.mjs",
  ],
  ignore: isTest,
  outputs: ["apps/admin/dist/index.html"],
  async build() {
    const { build } = await import("vite");
    await build({
      root: join(root, "apps/admin"),
      configFile: join(root, "apps/admin/vite.config.ts"),
      logLevel: "warn",
    });
  },
};

/** @type {import("./build-if-stale.mjs").BuildStep[]} */
export const buildSteps = [serverStep, adminStep];
