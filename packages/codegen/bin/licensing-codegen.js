#!/usr/bin/env node
// licensing-codegen: the published package runs its build; in the repository, before any build, the
// TypeScript sources run through tsx.
import { existsSync } from "node:fs";
import process from "node:process";
import { URL } from "node:url";

const built = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(built)) (await import("tsx/esm/api")).register();
const { main } = await import(existsSync(built) ? built.href : "../src/cli.ts");
process.exitCode = await main(process.argv.slice(2));
