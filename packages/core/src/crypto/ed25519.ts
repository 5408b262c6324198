import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from "node:crypto";
import type { SecretBox } from "./secret-box.ts";

/** Ed25519 with node:crypto (ARCHITECTURE.md D4); the SDK verifies the same bytes with @noble/ed25519. */

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

export function verifyEd25519(publicKey: KeyObject, data: Buffer | string, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, typeof data === "string" ? Buffer.from(data, "ascii") : data, publicKey, signature);
  } catch {
    return false;
  }
}

/** Opens a sealed PKCS#8 private key; callers on the hot path go through `signingPrivateKey`. */
export function openPrivateKey(secrets: SecretBox, sealed: string): KeyObject {
  return createPrivateKey({ key: secrets.open(sealed), format: "der", type: "pkcs8" });
}

// Decrypted keys per master key (one SecretBox per process in production, one per test app in
// tests), so issuing does not run AES-GCM and DER parsing on every signature. Signing keys are few
// (one per template plus rotations), so the bound only guards against pathological growth.
const MAX_CACHED_KEYS = 10_000;
const caches = new WeakMap<SecretBox, Map<string, KeyObject>>();

/** The private KeyObject of signing key `keyId`, decrypted once and then served from memory. */
export function signingPrivateKey(secrets: SecretBox, keyId: string, sealed: string): KeyObject {
  let cache = caches.get(secrets);
  if (!cache) caches.set(secrets, (cache = new Map()));
  const cached = cache.get(keyId);
  if (cached) return cached;
  const key = openPrivateKey(secrets, sealed);
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!);
  cache.set(keyId, key);
  return key;
}

/** The decrypted key of `keyId` if this process has used it before, without touching the database. */
export const cachedSigningPrivateKey = (secrets: SecretBox, keyId: string): KeyObject | undefined =>
  caches.get(secrets)?.get(keyId);
