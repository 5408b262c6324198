import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
// @ts-expect-error plain JavaScript (npm start runs it before anything is compiled); no declarations
import { fingerprint, root, staleReason } from "../../scripts/build/build-if-stale.mjs";
// @ts-expect-error the same
import { adminStep } from "../../scripts/build/steps.mjs";

/** The admin app's folder; its production build goes to `dist/` beside this file. */
export const ADMIN_ROOT = dirname(fileURLToPath(import.meta.url));
export const ADMIN_DIST = join(ADMIN_ROOT, "dist");

/**
 * Builds the admin app when `npm start` would (its admin step: the build is missing or its sources'
 * hash changed, decision 0031); returns whether it built. Synchronous, so the build runs in a child
 * process (`scripts/build.mjs admin`), which records the stamp `npm start` then finds current.
 */
export function ensureAdminBuild(): boolean {
  if (!staleReason(adminStep, fingerprint(adminStep))) return false;
  execFileSync(process.execPath, [join(root, "scripts/build.mjs"), adminStep.name], { stdio: "inherit" });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureAdminBuild();
