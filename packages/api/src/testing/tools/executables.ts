import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Whether `path` is a file this process may execute (on Windows: a file; execution rights are not bits there). */
export function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== "win32") accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface Lookup {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  isExecutable?: (path: string) => boolean;
}

/** The first of `names` found in a folder of `PATH`, as a shell would find it; null when none is. */
export function findOnPath(names: readonly string[], lookup: Lookup = {}): string | null {
  const env = lookup.env ?? process.env;
  const windows = (lookup.platform ?? process.platform) === "win32";
  const executable = lookup.isExecutable ?? isExecutable;
  const folders = (env.PATH ?? "").split(windows ? ";" : delimiter).filter(Boolean);
  const suffixes = windows ? (env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";").filter(Boolean) : [""];
  for (const name of names)
    for (const folder of folders)
      for (const suffix of suffixes) {
        const candidate = join(folder, name + suffix);
        if (executable(candidate)) return candidate;
      }
  return null;
}
