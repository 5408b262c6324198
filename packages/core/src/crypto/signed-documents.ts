import type { KeyObject } from "node:crypto";
import {
  decodeCertificate,
  encodeBase64url,
  encodeCertificateSigningInput,
  encodeRevocationListSigningInput,
  encodeRevocationSigningInput,
  type CertificatePayload,
  type DecodedDocument,
  type RevocationListPayload,
  type RevocationPayload,
} from "@licensing/protocol";
import { publicKeyFromHex, signEd25519, verifyEd25519 } from "./ed25519.ts";

/**
 * The key chain's and revocation's signed documents (decision 0049), signed with node:crypto over the
 * protocol's signing inputs, so the bytes are those of the golden vectors and the SDK verifies them.
 */

const signed = (signingInput: string, privateKey: KeyObject) =>
  `${signingInput}.${encodeBase64url(signEd25519(privateKey, signingInput))}`;

/** The key that signs a document: its id, its private key and, unless it is the root, its certificate. */
export interface DocumentSigner {
  keyId: string;
  privateKey: KeyObject;
  certificate: string | null;
}

const header = (signer: DocumentSigner) => ({
  kid: signer.keyId,
  ...(signer.certificate === null ? {} : { crt: signer.certificate }),
});

/** The root key's certificate of a key. */
export const signCertificate = (
  root: { keyId: string; privateKey: KeyObject },
  payload: CertificatePayload,
) => signed(encodeCertificateSigningInput(root.keyId, payload), root.privateKey);

export const signRevocation = (signer: DocumentSigner, payload: RevocationPayload) =>
  signed(encodeRevocationSigningInput(header(signer), payload), signer.privateKey);

export const signRevocationList = (signer: DocumentSigner, payload: RevocationListPayload) =>
  signed(encodeRevocationListSigningInput(header(signer), payload), signer.privateKey);

/** Whether a decoded document's signature verifies with a hex public key. */
export const verifiesWith = (document: DecodedDocument, publicKeyHex: string) =>
  verifyEd25519(publicKeyFromHex(publicKeyHex), document.signingInput, document.signature);

/** The payload of a certificate that the root key `rootPublicKeyHex` signed; null otherwise. */
export function verifyCertificate(text: string, rootPublicKeyHex: string): CertificatePayload | null {
  const decoded = decodeCertificate(text);
  return decoded && verifiesWith(decoded, rootPublicKeyHex) ? decoded.payload : null;
}
