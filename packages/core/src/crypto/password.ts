import { hash, verify } from "@node-rs/argon2";

// The library's defaults are argon2id with OWASP's baseline (19 MiB, 2 passes, 1 lane).
export const hashPassword = (password: string) => hash(password);

// Verified against when the account does not exist, so a wrong email costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword("timing-equaliser");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}

export const MIN_PASSWORD_LENGTH = 8;
