// Builds dist/cli.js, what the `licensing-codegen` bin runs: the generator of @licensing/config-types
// bundled in (the package needs no workspace package), json-schema-to-typescript left a dependency.
import { rm } from "node:fs/promises";
import { chdir, stdout } from "node:process";
import { fileURLToPath, URL } from "node:url";
import { build } from "tsup";

chdir(fileURLToPath(new URL(".", import.meta.url)));
await rm("dist", { recursive: true, force: true });
await build({
  config: false,
  entry: { cli: "src/cli.ts" },
  format: ["esm"],
  target: "node20.19",
  platform: "node",
  sourcemap: true,
  silent: true,
  noExternal: ["@licensing/config-types"],
  external: ["json-schema-to-typescript"],
});
stdout.write("@licensing/codegen: dist/ built\n");
