import { encodeBase64url } from "./base64url.ts";
import { decodeTokenSegments } from "./segments.ts";

/**
 * The service's signed documents besides the license token (decision 0049): a signing key's certificate, a
 * license's revocation and a template's revocation list. Each is a JWS compact (EdDSA) like the token, told
 * apart by the header's `typ`, so that none passes for another or for a license token (`typ: "JWT"`). This
 * module imports no zod: the SDK's core bundle decodes them too.
 */
export const DOCUMENT_TYPES = {
  certificate: "signing-key-certificate",
  revocation: "license-revocation",
  revocationList: "revocation-list",
} as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[keyof typeof DOCUMENT_TYPES];

/** The protected header of a signed document. */
export interface DocumentHeader {
  alg: "EdDSA";
  typ: DocumentType;
  /** Id of the key that signed it. */
  kid: string;
  /** That key's certificate, when the key is not the template's root (a revocation, a revocation list). */
  crt?: string;
}

export type Json = Record<string, unknown>;

// zod's z.uuid(): RFC 9562 versions 1 to 8, and the nil and max UUIDs.
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;
export const isUuid = (v: unknown): v is string => typeof v === "string" && UUID.test(v);
export const isUnixSeconds = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * `base64url(header).base64url(payload)`, the header's members in the order `alg, typ, kid, crt` and the
 * payload's as the caller built them: the bytes a document's signature covers.
 */
export function encodeDocumentSigningInput(header: DocumentHeader, payload: Json): string {
  const ordered = {
    alg: header.alg,
    typ: header.typ,
    kid: header.kid,
    ...(header.crt === undefined ? {} : { crt: header.crt }),
  };
  return `${encodeBase64url(JSON.stringify(ordered))}.${encodeBase64url(JSON.stringify(payload))}`;
}

export interface DecodedDocument {
  header: DocumentHeader;
  /** The payload as decoded, not yet checked against its type's members. */
  payload: Json;
  signingInput: string;
  signature: Uint8Array;
}

/**
 * Splits and decodes a document of type `typ` without verifying it: three canonical base64url segments, a
 * header saying EdDSA, this `typ`, a UUID `kid`, an optional string `crt` and no `crit`. Null otherwise.
 */
export function decodeDocument(text: string, typ: DocumentType): DecodedDocument | null {
  const decoded = decodeTokenSegments(text.trim());
  if (!decoded) return null;
  const { rawHeader: h, rawClaims, signingInput, signature } = decoded;
  const valid =
    h.alg === "EdDSA" &&
    h.typ === typ &&
    isUuid(h.kid) &&
    (h.crt === undefined || typeof h.crt === "string") &&
    !("crit" in h);
  return valid
    ? { header: h as unknown as DocumentHeader, payload: rawClaims, signingInput, signature }
    : null;
}
