/**
 * Where a client keeps its files. The Node entry stores them beside the license file (`fileStorage`); a
 * browser or an Electron renderer brings its own (IndexedDB, localStorage, IPC to the main process).
 * A read answers null for "absent" and throws for anything else; writes replace the whole value atomically.
 */
export interface LicenseStorage {
  /** The license file's text: an envelope `{licenseKey, token, publicKey}` or a bare token. */
  readLicense(): Promise<string | null>;
  /** The cached offline marker, exactly as the server returned it (`<license file>.hb`). */
  readMarker(): Promise<string | null>;
  /** Replaces the cached marker; null removes it. */
  writeMarker(marker: string | null): Promise<void>;
  /** The library's other state (activation id, latest observed time), as JSON text. */
  readState(): Promise<string | null>;
  writeState(state: string): Promise<void>;
}

export interface MemoryStorage extends LicenseStorage {
  license: string | null;
  marker: string | null;
  state: string | null;
}

/** Storage in memory: for tests, and for a renderer that receives the license file some other way. */
export function memoryStorage(
  initial: { license?: string | null; marker?: string | null; state?: string | null } = {},
): MemoryStorage {
  const storage: MemoryStorage = {
    license: initial.license ?? null,
    marker: initial.marker ?? null,
    state: initial.state ?? null,
    readLicense: async () => storage.license,
    readMarker: async () => storage.marker,
    writeMarker: async (marker) => void (storage.marker = marker),
    readState: async () => storage.state,
    writeState: async (state) => void (storage.state = state),
  };
  return storage;
}
