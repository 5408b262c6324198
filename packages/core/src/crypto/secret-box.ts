import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Where a sealed value is stored. It is bound there: the AES-GCM associated data is `table:column:rowId`,
 * so a value copied to another row or column (someone's TOTP secret into another account) does not open.
 */
export interface SealedAt {
  table: string;
  column: string;
  rowId: string;
}

/** The format `seal` writes; v1 (no associated data) is read only while re-sealing (`reseal`). */
export const SEALED_VERSION = "v2";
const LEGACY_VERSION = "v1";
const TAG_BYTES = 16;
const GCM = { authTagLength: TAG_BYTES } as const;

/** A sealed value that does not open where it was read: moved, altered, under another key, or still v1. */
export class SealedValueError extends Error {
  override name = "SealedValueError";
}

/** AES-256-GCM under the master key; output `v2.<iv>.<tag>.<ciphertext>` in base64url. */
export interface SecretBox {
  seal(plaintext: string | Buffer, at: SealedAt): string;
  /** The plaintext of a v2 value sealed for `at`; a SealedValueError for anything else. */
  open(sealed: string, at: SealedAt): Buffer;
  /**
   * The value sealed again for `at`, as v2, under `to` (this box by default): the one reader of the v1
   * format, for the start-up upgrade and the master key rotation. Throws SealedValueError when it does not open.
   */
  reseal(sealed: string, at: SealedAt, to?: SecretBox): string;
}

const placeOf = (at: SealedAt) => `${at.table}:${at.column}:${at.rowId}`;

export function createSecretBox(masterKey: Buffer): SecretBox {
  if (masterKey.length !== 32) throw new Error("The master key must be 32 bytes");

  function decrypt(sealed: string, at: SealedAt, accept: readonly string[]): Buffer {
    const [version, iv, tag, body, ...rest] = sealed.split(".");
    if (version === LEGACY_VERSION && !accept.includes(LEGACY_VERSION)) {
      throw new SealedValueError(
        `The sealed value at ${placeOf(at)} is in the retired v1 format (bound to no row); ` +
          `start the server once to re-seal it as ${SEALED_VERSION}`,
      );
    }
    const tagBytes = tag === undefined ? undefined : Buffer.from(tag, "base64url");
    if (
      !accept.includes(version!) ||
      !iv ||
      tagBytes?.length !== TAG_BYTES ||
      body === undefined ||
      rest.length
    ) {
      throw new SealedValueError(`The value at ${placeOf(at)} is not a sealed value`);
    }
    const decipher = createDecipheriv("aes-256-gcm", masterKey, Buffer.from(iv, "base64url"), GCM);
    if (version === SEALED_VERSION) decipher.setAAD(Buffer.from(placeOf(at), "utf8"));
    decipher.setAuthTag(tagBytes);
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
    } catch {
      throw new SealedValueError(
        `The sealed value at ${placeOf(at)} does not open: it was sealed for another row or column, ` +
          `altered, or sealed under another master key`,
      );
    }
  }

  const box: SecretBox = {
    seal(plaintext, at) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", masterKey, iv, GCM);
      cipher.setAAD(Buffer.from(placeOf(at), "utf8"));
      const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return [SEALED_VERSION, ...[iv, cipher.getAuthTag(), body].map((p) => p.toString("base64url"))].join(
        ".",
      );
    },
    open: (sealed, at) => decrypt(sealed, at, [SEALED_VERSION]),
    reseal(sealed, at, to = box) {
      const plaintext = decrypt(sealed, at, [SEALED_VERSION, LEGACY_VERSION]);
      try {
        return to.seal(plaintext, at);
      } finally {
        plaintext.fill(0);
      }
    },
  };
  return box;
}
