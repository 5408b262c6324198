import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from "node:crypto";
import { tables } from "@licensing/db";
import { sealedAt } from "./sealed-columns.ts";
import type { SecretBox } from "./secret-box.ts";

/** Ed25519 with node:crypto (docs/architecture.md D4); the SDK verifies the same bytes with @noble/ed25519. */

export interface GeneratedKeyPair {
  /** Hex of the raw 32-byte public key, as the API publishes it. */
  publicKeyHex: string;
  /** PKCS#8 DER of the private key: seal it before it leaves memory. */
  privateKeyDer: Buffer;
}

export function generateEd25519KeyPair(): GeneratedKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return {
    publicKeyHex: rawPublicKeyHex(publicKey),
    privateKeyDer: privateKey.export({ format: "der", type: "pkcs8" }),
  };
}

/** The raw 32 bytes of an Ed25519 public (or private) key, as hex. */
export function rawPublicKeyHex(key: KeyObject): string {
  const publicKey = key.type === "private" ? createPublicKey(key) : key;
  const { x } = publicKey.export({ format: "jwk" });
  return Buffer.from(x!, "base64url").toString("hex");
}

const RAW_PUBLIC_KEY_HEX = /^[0-9a-f]{64}$/i;

/** A public KeyObject from the 64-character hex the API publishes; throws on anything else. */
export function publicKeyFromHex(hex: string): KeyObject {
  if (!RAW_PUBLIC_KEY_HEX.test(hex)) throw new Error("An Ed25519 public key is 32 bytes (64 hex characters)");
  return createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(hex, "hex").toString("base64url") },
    format: "jwk",
  });
}

export const signEd25519 = (privateKey: KeyObject, data: Buffer | string): Buffer =>
  sign(null, typeof data === "string" ? Buffer.from(data, "ascii") : data, privateKey);

export function verifyEd25519(publicKey: KeyObject, data: Buffer | string, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, typeof data === "string" ? Buffer.from(data, "ascii") : data, publicKey, signature);
  } catch {
    return false;
  }
}

/** Opens the sealed PKCS#8 private key of signing key `keyId`; callers on the hot path go through a `SigningKeyCache`. */
export function openPrivateKey(secrets: SecretBox, keyId: string, sealed: string): KeyObject {
  const der = secrets.open(sealed, sealedAt(tables.signingKeys.privateKeySealed, keyId));
  try {
    return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  } finally {
    der.fill(0);
  }
}

/** Decrypted signing keys, so issuing does not run AES-GCM and DER parsing on every signature. */
export interface SigningKeyCache {
  /** The private KeyObject of signing key `keyId`, decrypted once and then served from memory. */
  privateKey(keyId: string, sealed: string): KeyObject;
  /** The decrypted key of `keyId` if it was used before, without touching the database. */
  cached(keyId: string): KeyObject | undefined;
}

// Signing keys are few (one per template plus rotations), so the bound only guards against
// pathological growth.
const MAX_CACHED_KEYS = 10_000;

/** A cache over one master key (`secrets`); held by `Deps`. */
export function createSigningKeyCache(secrets: SecretBox): SigningKeyCache {
  const keys = new Map<string, KeyObject>();
  return {
    privateKey(keyId, sealed) {
      const cached = keys.get(keyId);
      if (cached) return cached;
      const key = openPrivateKey(secrets, keyId, sealed);
      if (keys.size >= MAX_CACHED_KEYS) keys.delete(keys.keys().next().value!);
      keys.set(keyId, key);
      return key;
    },
    cached: (keyId) => keys.get(keyId),
  };
}
