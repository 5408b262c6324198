// @ts-check
// `npm start`: builds the server and the admin app when their build is missing or stale (in a child
// process), then runs the compiled JavaScript in this process (no TypeScript loader at run time).
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { buildIfStaleInChild, root } from "./build/build-if-stale.mjs";
import { buildSteps, serverBuild } from "./build/steps.mjs";

buildIfStaleInChild(buildSteps);
await import(pathToFileURL(join(root, serverBuild.main)).href);
