import {
  decodeBase64urlStrict,
  decodeJsonSegment,
  decodeLeaseToken,
  decodeMarker,
  type LeaseTokenPayload,
  decodeRevocation,
  decodeRevocationList,
  decodeToken,
  type DecodedDocument,
  type RevocationListPayload,
  type RevocationPayload,
} from "@licensing/protocol";
import type { MarkerPayload, ParsedToken } from "../license/types.ts";
import { addCertificate, signedByTrusted, trustedKeys, type TrustedKeys } from "./key-chain.ts";

export { toPublicKey, type PublicKeyInput } from "./ed25519.ts";

/** One configured key (as before key chains), or the trusted keys of a client. */
export type VerificationKeys = Uint8Array | TrustedKeys;

export type TokenVerification =
  | { ok: true; token: ParsedToken }
  /** `signature-invalid`: not signed by a trusted key (or not a JWS at all); `claims-invalid`: signed, but unreadable. */
  | { ok: false; reason: "signature-invalid" | "claims-invalid" };

/**
 * Verifies a license token (JWS compact, EdDSA) with the configured key, or with a rotated key it certified
 * (the header's `kid` names it; decision 0049), signature first: a changed byte anywhere is a bad signature,
 * never a parse error.
 */
export async function verifyLicenseToken(token: string, keys: VerificationKeys): Promise<TokenVerification> {
  const segments = token.split(".");
  const signature = segments.length === 3 ? decodeBase64urlStrict(segments[2]!) : null;
  if (!signature || signature.length !== 64) return { ok: false, reason: "signature-invalid" };
  const kid = decodeJsonSegment(segments[0]!)?.kid;
  const iat = decodeJsonSegment(segments[1]!)?.iat;
  if (!(await signedByTrusted(trustedKeys(keys), kid, iat, signature, `${segments[0]}.${segments[1]}`))) {
    return { ok: false, reason: "signature-invalid" };
  }
  const parsed = decodeToken(token);
  if (parsed.ok) return { ok: true, token: parsed.token };
  return { ok: false, reason: parsed.reason === "invalid_claims" ? "claims-invalid" : "signature-invalid" };
}

/**
 * Verifies an offline marker (`base64url(payload).base64url(signature)`) like the token: by the configured
 * key, or by the certified key its `kid` names. `malformed` only when it is not shaped like a marker at all.
 */
export async function verifyMarker(
  marker: string,
  keys: VerificationKeys,
): Promise<{ ok: true; payload: MarkerPayload } | { ok: false; reason: "malformed" | "signature-invalid" }> {
  const segments = marker.trim().split(".");
  const signature = segments.length === 2 ? decodeBase64urlStrict(segments[1]!) : null;
  if (!signature || signature.length !== 64) return { ok: false, reason: "malformed" };
  const raw = decodeJsonSegment(segments[0]!);
  if (!(await signedByTrusted(trustedKeys(keys), raw?.kid, raw?.iat, signature, segments[0]!)))
    return { ok: false, reason: "signature-invalid" };
  const parsed = decodeMarker(marker.trim());
  return parsed.ok ? { ok: true, payload: parsed.marker.payload } : { ok: false, reason: "malformed" };
}

/**
 * Verifies a lease token (decision 0048) through the chain exactly as a marker: by the configured key, or
 * by the certified key its `kid` names, for what it signed (`iat`) within that key's certificate.
 */
export async function verifyLeaseToken(
  text: string,
  keys: VerificationKeys,
): Promise<LeaseTokenPayload | null> {
  const segments = text.trim().split(".");
  const signature = segments.length === 2 ? decodeBase64urlStrict(segments[1]!) : null;
  if (!signature || signature.length !== 64) return null;
  const raw = decodeJsonSegment(segments[0]!);
  if (!(await signedByTrusted(trustedKeys(keys), raw?.kid, raw?.iat, signature, segments[0]!))) return null;
  const parsed = decodeLeaseToken(text.trim());
  return parsed.ok ? parsed.lease.payload : null;
}

/** A signed document verified through the chain: the certificate in its header (`crt`) first. */
async function verifyDocument<D extends DecodedDocument>(decoded: D | null, keys: TrustedKeys) {
  if (!decoded) return null;
  if (decoded.header.crt !== undefined) await addCertificate(keys, decoded.header.crt);
  const trusted = await signedByTrusted(
    keys,
    decoded.header.kid,
    decoded.payload.iat,
    decoded.signature,
    decoded.signingInput,
  );
  return trusted ? decoded : null;
}

/** A license's revocation (the `revocation` of a 403 `license.revoked`), verified; null when it does not verify. */
export const verifyRevocation = async (text: string, keys: TrustedKeys): Promise<RevocationPayload | null> =>
  (await verifyDocument(decodeRevocation(text), keys))?.payload ?? null;

/** A template's revocation list, verified; null when it does not verify. */
export const verifyRevocationList = async (
  text: string,
  keys: TrustedKeys,
): Promise<RevocationListPayload | null> =>
  (await verifyDocument(decodeRevocationList(text), keys))?.payload ?? null;
