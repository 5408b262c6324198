import { randomBytes } from "node:crypto";
import { open, rename, rm, writeFile } from "node:fs/promises";
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
 * Replaces a file atomically: the text goes to a temporary file in the same folder, then is renamed over
 * the target, so a reader sees the old file or the new one, never half. No fsync: these files are a cache
 * the server refills, and a power cut that loses the last write costs a marker, never a wrong one (an
 * empty or torn file fails its signature check); fsync would cost every `initialize` milliseconds.
 */
export async function writeFileAtomic(path: string, text: string) {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, text, { encoding: "utf8", flag: "wx", mode: 0o600 });
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
