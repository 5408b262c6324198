import {
  DOCUMENT_TYPES,
  decodeDocument,
  encodeDocumentSigningInput,
  isUnixSeconds,
  isUuid,
  type DecodedDocument,
  type DocumentHeader,
  type Json,
} from "./signed-document.ts";

/**
 * What the service signs when a license with `immediate` revocation is revoked (decision 0049): the body of
 * the 403 `license.revoked` answer's `revocation`. Signed by the template's Active key; `crt` in the header
 * carries that key's certificate unless it is the root. Times are unix seconds.
 */
export interface RevocationPayload {
  lid: string;
  status: "Revoked";
  /** When the license was revoked. */
  revokedAt: number;
  /** When this document was signed. */
  iat: number;
}

/** One license of a revocation list. */
export interface RevokedLicense {
  lid: string;
  revokedAt: number;
}

/** At most this many licenses in one revocation list; `next` then asks for the rest. */
export const REVOCATION_LIST_PAGE_SIZE = 10_000;

/**
 * A template's revocation list (`GET /client/revocations`), for machines that never go online: the licenses
 * with `immediate` revocation revoked at or after `since`, oldest first.
 */
export interface RevocationListPayload {
  /** The template's id and product code. */
  tid: string;
  tpl: string;
  /** The `since` asked for (unix seconds; 0 when none was). */
  since: number;
  /** When the list was signed. */
  iat: number;
  revoked: RevokedLicense[];
  /** The cursor of the next page (`?cursor=`), or null when this page is the last. */
  next: string | null;
}

type Signer = Pick<DocumentHeader, "kid" | "crt">;

/** The signing input of a revocation, members in the order of the type. */
export const encodeRevocationSigningInput = (signer: Signer, payload: RevocationPayload): string =>
  encodeDocumentSigningInput(
    { alg: "EdDSA", typ: DOCUMENT_TYPES.revocation, ...signer },
    { lid: payload.lid, status: payload.status, revokedAt: payload.revokedAt, iat: payload.iat },
  );

/** The signing input of a revocation list, members in the order of the type. */
export const encodeRevocationListSigningInput = (signer: Signer, payload: RevocationListPayload): string =>
  encodeDocumentSigningInput(
    { alg: "EdDSA", typ: DOCUMENT_TYPES.revocationList, ...signer },
    {
      tid: payload.tid,
      tpl: payload.tpl,
      since: payload.since,
      iat: payload.iat,
      revoked: payload.revoked.map((r) => ({ lid: r.lid, revokedAt: r.revokedAt })),
      next: payload.next,
    },
  );

const isRevoked = (v: unknown): v is RevokedLicense =>
  typeof v === "object" && v !== null && isUuid((v as Json).lid) && isUnixSeconds((v as Json).revokedAt);

export interface DecodedRevocation extends DecodedDocument {
  payload: Json & RevocationPayload;
}
export interface DecodedRevocationList extends DecodedDocument {
  payload: Json & RevocationListPayload;
}

/** Decodes a revocation without verifying it; null when it is not one. */
export function decodeRevocation(text: string): DecodedRevocation | null {
  const document = decodeDocument(text, DOCUMENT_TYPES.revocation);
  const p = document?.payload;
  const valid =
    p && isUuid(p.lid) && p.status === "Revoked" && isUnixSeconds(p.revokedAt) && isUnixSeconds(p.iat);
  return valid ? (document as DecodedRevocation) : null;
}

/** Decodes a revocation list without verifying it; null when it is not one. */
export function decodeRevocationList(text: string): DecodedRevocationList | null {
  const document = decodeDocument(text, DOCUMENT_TYPES.revocationList);
  const p = document?.payload;
  const valid =
    p &&
    isUuid(p.tid) &&
    typeof p.tpl === "string" &&
    isUnixSeconds(p.since) &&
    isUnixSeconds(p.iat) &&
    Array.isArray(p.revoked) &&
    p.revoked.every(isRevoked) &&
    (p.next === null || typeof p.next === "string");
  return valid ? (document as DecodedRevocationList) : null;
}
