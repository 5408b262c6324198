import { hash, verify, type Options } from "@node-rs/argon2";

/** Argon2 cost parameters; absent fields take the library's defaults. */
export type PasswordHashParams = Pick<Options, "memoryCost" | "timeCost" | "parallelism">;

// The library's defaults are argon2id with OWASP's baseline (19 MiB, 2 passes, 1 lane).
export const hashPassword = (password: string, params: PasswordHashParams = {}) => hash(password, params);

/**
 * The Argon2 computations a hasher runs: @node-rs/argon2's. Tests pass the same functions wrapped to count
 * them, which shows that an unknown account costs the work a known one does (decision 0044).
 */
export interface Argon2 {
  hash(password: string, params: PasswordHashParams): Promise<string>;
  verify(storedHash: string, password: string): Promise<boolean>;
}

export const argon2: Argon2 = { hash, verify };

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a missing hash (no account), at the same cost. */
  verify(storedHash: string | null, password: string): Promise<boolean>;
}

/** Hashes and verifies with one set of parameters; held by `Deps`. */
export function createPasswordHasher(params: PasswordHashParams = {}, run: Argon2 = argon2): PasswordHasher {
  // Verified against when the account does not exist, so a wrong email costs as long as a wrong password.
  let dummyHash: Promise<string> | undefined;
  return {
    hash: (password) => run.hash(password, params),
    async verify(storedHash, password) {
      if (!storedHash) {
        dummyHash ??= run.hash("timing-equaliser", params);
        await run.verify(await dummyHash, password).catch(() => false);
        return false;
      }
      return run.verify(storedHash, password).catch(() => false);
    },
  };
}

export const MIN_PASSWORD_LENGTH = 8;
