// @ts-check
// `npm run rotate-master-key -- --generate | --new-key-stdin`: builds the server when its build is missing
// or stale (as `npm start` does), then runs the compiled rotation (apps/server/src/rotate-master-key.ts),
// so it works where devDependencies were pruned after the build.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { buildIfStaleInChild, root } from "./build/build-if-stale.mjs";
import { serverBuild, serverStep } from "./build/steps.mjs";

buildIfStaleInChild([serverStep]);
await import(pathToFileURL(join(root, serverBuild.rotateMasterKey)).href);
