// @ts-check
// `npm run build:server [-- --force]`: what `npm start` builds, without starting.
import { argv, stderr } from "node:process";
import { buildIfStale } from "./build/build-if-stale.mjs";
import { buildSteps } from "./build/steps.mjs";

const built = await buildIfStale(buildSteps, { force: argv.includes("--force") });
if (built.length === 0) stderr.write("build: everything is up to date\n");
