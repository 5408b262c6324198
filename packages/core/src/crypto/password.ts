import { hash, verify, type Options } from "@node-rs/argon2";

/** Argon2 cost parameters; absent fields take the library's defaults. */
export type PasswordHashParams = Pick<Options, "memoryCost" | "timeCost" | "parallelism">;

// The library's defaults are argon2id with OWASP's baseline (19 MiB, 2 passes, 1 lane).
export const hashPassword = (password: string, params: PasswordHashParams = {}) => hash(password, params);

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a missing hash (no account), at the same cost. */
  verify(storedHash: string | null, password: string): Promise<boolean>;
}

/** Hashes and verifies with one set of parameters; held by `Deps`. */
export function createPasswordHasher(params: PasswordHashParams = {}): PasswordHasher {
  // Verified against when the account does not exist, so a wrong email costs as long as a wrong password.
  let dummyHash: Promise<string> | undefined;
  return {
    hash: (password) => hashPassword(password, params),
    async verify(storedHash, password) {
      if (!storedHash) {
        dummyHash ??= hashPassword("timing-equaliser", params);
        await verify(await dummyHash, password).catch(() => false);
        return false;
      }
      return verify(storedHash, password).catch(() => false);
    },
  };
}

export const MIN_PASSWORD_LENGTH = 8;
