import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error plain JavaScript (npm start runs it before anything is compiled); no declarations
import { buildIfStaleInChild } from "../../scripts/build/build-if-stale.mjs";
// @ts-expect-error the same
import { adminStep } from "../../scripts/build/steps.mjs";

/** The admin app's folder; its production build goes to `dist/` beside this file. */
export const ADMIN_ROOT = dirname(fileURLToPath(import.meta.url));
export const ADMIN_DIST = join(ADMIN_ROOT, "dist");

/**
 * Builds the admin app when `npm start` would (its admin step: the build is missing or its sources'
 * hash changed, decision 0031), in a child process as `npm start` does; returns whether it built.
 */
export function ensureAdminBuild(): boolean {
  return buildIfStaleInChild([adminStep]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureAdminBuild();
