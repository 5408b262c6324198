import { decodeCertificate, fromHex } from "@licensing/protocol";
import { ed25519Verify, toPublicKey, type PublicKeyInput } from "./ed25519.ts";

/** A rotated key the configured keys vouch for (decision 0049); times in unix seconds. */
interface CertifiedKey {
  text: string;
  publicKey: Uint8Array;
  nbf: number;
  /** When the key was retired: it signs nothing from then on. */
  exp: number | null;
}

/**
 * The keys a client trusts: the configured public keys (the template's root, and any the vendor pre-ships),
 * and the rotated keys one of them certified, by key id.
 */
export interface TrustedKeys {
  configured: Uint8Array[];
  certified: Map<string, CertifiedKey>;
}

/** The `publicKey` option as trusted keys: one key or a list of them (TypeError when empty or malformed). */
export function trustedKeys(input: PublicKeyInput | readonly PublicKeyInput[] | TrustedKeys): TrustedKeys {
  if (typeof input === "object" && "certified" in input) return input;
  const list = typeof input === "string" || input instanceof Uint8Array ? [input] : [...input];
  if (list.length === 0) throw new TypeError("publicKey must name at least one key");
  return { configured: list.map(toPublicKey), certified: new Map() };
}

/**
 * Verifies a certificate with the configured keys and keeps it. Of two certificates of one key, the one
 * with an end wins over one without, and the earlier end over a later one: a retirement, once learned,
 * cannot be taken back by replaying an older certificate. False when no configured key signed it.
 */
export async function addCertificate(keys: TrustedKeys, text: string): Promise<boolean> {
  const decoded = decodeCertificate(text);
  if (!decoded) return false;
  if (!(await byConfigured(keys, decoded.signature, decoded.signingInput))) return false;
  const { kid, pub, nbf, exp = null } = decoded.payload;
  const known = keys.certified.get(kid);
  const ends = (e: number | null) => e ?? Infinity;
  if (!known || ends(exp) < ends(known.exp)) {
    keys.certified.set(kid, { text: text.trim(), publicKey: fromHex(pub)!, nbf, exp });
  }
  return true;
}

/**
 * Whether `signature` over `message` is by a trusted key. A key with a known certificate counts only for
 * what it signed (`signedAt`, unix seconds) from its `nbf` and before its `exp`; otherwise a configured
 * key must have signed.
 */
export async function signedByTrusted(
  keys: TrustedKeys,
  kid: unknown,
  signedAt: unknown,
  signature: Uint8Array,
  message: string,
): Promise<boolean> {
  const certified = typeof kid === "string" ? keys.certified.get(kid) : undefined;
  if (certified) {
    const at = typeof signedAt === "number" ? signedAt : -1;
    return (
      at >= certified.nbf &&
      at < (certified.exp ?? Infinity) &&
      (await ed25519Verify(signature, message, certified.publicKey))
    );
  }
  return byConfigured(keys, signature, message);
}

async function byConfigured(keys: TrustedKeys, signature: Uint8Array, message: string) {
  for (const key of keys.configured) if (await ed25519Verify(signature, message, key)) return true;
  return false;
}
