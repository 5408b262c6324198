import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { findOnPath, type Lookup } from "./executables.ts";

/** Debian and Ubuntu keep each PostgreSQL version's server programs here, off PATH. */
const DEBIAN_POSTGRESQL = "/usr/lib/postgresql";

/**
 * The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`): the one on PATH (Homebrew, Fedora,
 * the official installers), else the newest under /usr/lib/postgresql. Null when neither has them.
 */
export function findPostgresBinDir(lookup: Lookup = {}): string | null {
  const initdb = findOnPath(["initdb"], lookup);
  if (initdb && existsSync(join(dirname(initdb), "pg_ctl"))) return dirname(initdb);
  if (!existsSync(DEBIAN_POSTGRESQL)) return null;
  const versions = readdirSync(DEBIAN_POSTGRESQL)
    .filter((v) => existsSync(join(DEBIAN_POSTGRESQL, v, "bin", "initdb")))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? join(DEBIAN_POSTGRESQL, versions.at(-1)!, "bin") : null;
}
