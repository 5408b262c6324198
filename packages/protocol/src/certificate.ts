import { ED25519_PUBLIC_KEY_HEX } from "./hex.ts";
import {
  DOCUMENT_TYPES,
  decodeDocument,
  encodeDocumentSigningInput,
  isUnixSeconds,
  isUuid,
  type DecodedDocument,
  type Json,
} from "./signed-document.ts";

/**
 * A signing key's certificate (decision 0049): the template's root key (its first signing key, the one
 * programs are built with) vouches for a later key's id and public key from `nbf`, and, once the key is
 * retired, until `exp`. Tokens and markers the key signed at or after `exp` are refused; what it signed
 * before stays valid until its own expiry. Times are unix seconds.
 */
export interface CertificatePayload {
  /** Id of the certified key: the `kid` of the tokens, markers and documents it signs. */
  kid: string;
  /** Its Ed25519 public key, 64 hex characters. */
  pub: string;
  /** When this certificate was issued: the key's creation, or its retirement for the certificate that ends it. */
  iat: number;
  /** From when the key signs. */
  nbf: number;
  /** The key's retirement: it signs nothing from then on. Absent while it is not retired. */
  exp?: number;
}

/** The signing input of a certificate by root key `rootKeyId`, members in the order of the type. */
export const encodeCertificateSigningInput = (rootKeyId: string, payload: CertificatePayload): string =>
  encodeDocumentSigningInput(
    { alg: "EdDSA", typ: DOCUMENT_TYPES.certificate, kid: rootKeyId },
    {
      kid: payload.kid,
      pub: payload.pub,
      iat: payload.iat,
      nbf: payload.nbf,
      ...(payload.exp === undefined ? {} : { exp: payload.exp }),
    },
  );

export interface DecodedCertificate extends DecodedDocument {
  payload: Json & CertificatePayload;
}

/** Decodes a certificate without verifying it; null when it is not one. */
export function decodeCertificate(text: string): DecodedCertificate | null {
  const document = decodeDocument(text, DOCUMENT_TYPES.certificate);
  const p = document?.payload;
  const valid =
    p &&
    isUuid(p.kid) &&
    typeof p.pub === "string" &&
    ED25519_PUBLIC_KEY_HEX.test(p.pub) &&
    isUnixSeconds(p.iat) &&
    isUnixSeconds(p.nbf) &&
    (p.exp === undefined || isUnixSeconds(p.exp));
  return valid ? (document as DecodedCertificate) : null;
}
