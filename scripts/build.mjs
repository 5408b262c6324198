// @ts-check
// `npm run build:server [-- --force] [-- <step>…]`: what `npm start` builds, without starting; only the
// named steps (e.g. `admin`) when some are named.
import { argv, exit, stderr } from "node:process";
import { buildIfStale } from "./build/build-if-stale.mjs";
import { buildSteps } from "./build/steps.mjs";

const names = argv.slice(2).filter((arg) => !arg.startsWith("--"));
const unknown = names.filter((name) => !buildSteps.some((step) => step.name === name));
if (unknown.length) {
  stderr.write(
    `build: no step ${unknown.join(", ")}; the steps are ${buildSteps.map((s) => s.name).join(", ")}\n`,
  );
  exit(2);
}
const steps = names.length ? buildSteps.filter((step) => names.includes(step.name)) : buildSteps;
const built = await buildIfStale(steps, { force: argv.includes("--force") });
if (built.length === 0) stderr.write("build: everything is up to date\n");
