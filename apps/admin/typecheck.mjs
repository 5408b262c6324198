// @ts-check
// `node typecheck.mjs tsconfig.json …`: `tsc --noEmit` over each project, then fails if a server package's
// TypeScript source is in the program. The app sees the server only through the declarations in
// packages/*/dist-types (decision 0035); a source file there means its types are checked again, here.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute } from "node:path";
import { argv, execPath, exit, stderr, stdout } from "node:process";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const serverSource = /\/packages\/[^/]+\/src\/.*(?<!\.d)\.[cm]?tsx?$/;
const serverDeclarations = /\/packages\/api\/dist-types\//;

let failed = false;
for (const project of argv.slice(2)) {
  const args = ["--noEmit", "--listFiles", "-p", project, ...(stdout.isTTY ? ["--pretty"] : [])];
  const run = spawnSync(execPath, [tsc, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const lines = run.stdout.split("\n");
  const isListedFile = (/** @type {string} */ line) => isAbsolute(line) && existsSync(line);
  stdout.write(lines.filter((line) => !isListedFile(line)).join("\n"));
  stderr.write(run.stderr);
  if (run.status !== 0) {
    failed = true;
    continue;
  }
  const files = lines.filter(isListedFile);
  const sources = files.filter((file) => serverSource.test(file) && !file.includes("/node_modules/"));
  if (sources.length > 0) {
    failed = true;
    const shown = sources.length > 10 ? [...sources.slice(0, 10), `… ${sources.length - 10} more`] : sources;
    stderr.write(
      `${project}: server sources in the program, not their declarations (see decision 0035):\n  ${shown.join("\n  ")}\n`,
    );
  } else if (!files.some((file) => serverDeclarations.test(file))) {
    failed = true;
    stderr.write(
      `${project}: no declaration of @licensing/api in the program: is the check still looking?\n`,
    );
  }
}
exit(failed ? 1 : 0);
