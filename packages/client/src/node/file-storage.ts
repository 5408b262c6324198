import { randomBytes } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import type { LicenseStorage } from "../client/storage.ts";

/** The files beside a license file: the cached marker (`.hb`, spec §2) and the library's state. */
export const cachePaths = (licenseFilePath: string) => ({
  license: licenseFilePath,
  marker: `${licenseFilePath}.hb`,
  state: `${licenseFilePath}.state.json`,
});

// A license file is a few kilobytes; anything much larger is not one, and is not read into memory.
const MAX_FILE_BYTES = 1024 * 1024;

async function readText(path: string): Promise<string | null> {
  try {
    const handle = await open(path, "r");
    try {
      const { size } = await handle.stat();
      if (size > MAX_FILE_BYTES) throw new Error(`${path} is larger than ${MAX_FILE_BYTES} bytes`);
      return await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Replaces a file atomically: the text goes to a temporary file in the same folder, is flushed to disk,
 * then renamed over the target, so a reader (or a crash) sees the old file or the new one, never half.
 */
export async function writeFileAtomic(path: string, text: string) {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `LicenseStorage` over a license file and the cache files beside it. */
export function fileStorage(licenseFilePath: string): LicenseStorage {
  const paths = cachePaths(licenseFilePath);
  return {
    readLicense: () => readText(paths.license),
    readMarker: () => readText(paths.marker),
    writeMarker: (marker) =>
      marker === null ? rm(paths.marker, { force: true }) : writeFileAtomic(paths.marker, marker),
    readState: () => readText(paths.state),
    writeState: (state) => writeFileAtomic(paths.state, state),
  };
}
