import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The admin app's folder; its production build goes to `dist/` beside this file. */
export const ADMIN_ROOT = dirname(fileURLToPath(import.meta.url));
export const ADMIN_DIST = join(ADMIN_ROOT, "dist");

/** Inputs whose change makes the build stale: sources, the page, the build config, the dependencies. */
const INPUTS = ["src", "index.html", "vite.config.ts", "package.json", "../../packages/contracts/src"];

function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

export function adminBuildIsStale(): boolean {
  const built = join(ADMIN_DIST, "index.html");
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  return INPUTS.some((input) => newest(join(ADMIN_ROOT, input)) > builtAt);
}

/** Builds the admin app when its build is missing or older than its sources; returns whether it built. */
export function ensureAdminBuild(log: (line: string) => void = console.log): boolean {
  if (!adminBuildIsStale()) return false;
  log("admin app: building (apps/admin/dist is missing or stale)");
  const vite = join(dirname(createRequire(import.meta.url).resolve("vite/package.json")), "bin/vite.js");
  execFileSync(process.execPath, [vite, "build", "--logLevel", "warn"], {
    cwd: ADMIN_ROOT,
    stdio: "inherit",
  });
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureAdminBuild();
