// @ts-check
// `npm start`: builds the server when its build is missing or stale, then runs the compiled JavaScript in
// this process (no TypeScript loader at run time).
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { buildIfStale, root } from "./build/build-if-stale.mjs";
import { buildSteps, serverStep } from "./build/steps.mjs";

await buildIfStale(buildSteps);
await import(pathToFileURL(join(root, serverStep.output)).href);
