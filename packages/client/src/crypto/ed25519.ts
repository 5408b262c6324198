import * as ed from "@noble/ed25519";
import { ED25519_PUBLIC_KEY_HEX, fromHex, utf8 } from "@licensing/protocol";

/** An Ed25519 public key: 32 raw bytes, or their 64 hex characters as the API returns them. */
export type PublicKeyInput = Uint8Array | string;

const MALFORMED = "publicKey must be 32 bytes or 64 hex characters (the template's Ed25519 key)";

/** The 32 bytes of a public key option; throws a TypeError naming what is wrong. */
export function toPublicKey(input: PublicKeyInput): Uint8Array {
  if (typeof input === "string") {
    const hex = input.trim();
    if (!ED25519_PUBLIC_KEY_HEX.test(hex)) throw new TypeError(MALFORMED);
    return fromHex(hex)!;
  }
  if (!(input instanceof Uint8Array) || input.length !== 32) throw new TypeError(MALFORMED);
  return Uint8Array.from(input);
}

// RFC 8032 verification (not ZIP 215's looser rules), as the server's OpenSSL signs and checks.
export async function ed25519Verify(signature: Uint8Array, message: string, publicKey: Uint8Array) {
  try {
    return await ed.verifyAsync(signature, utf8(message), publicKey, { zip215: false });
  } catch {
    return false;
  }
}
