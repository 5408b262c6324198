#!/usr/bin/env node
// licensing-sim: runs the TypeScript sources through tsx, resolving workspace packages to their sources
// (the `@licensing/source` export condition), as the repository's tests do.
import { register } from "node:module";
import process from "node:process";
import { register as registerTsx } from "tsx/esm/api";

registerTsx();
register("./source-condition.js", import.meta.url);
const { main } = await import("../src/cli.ts");
process.exitCode = await main(process.argv.slice(2));
