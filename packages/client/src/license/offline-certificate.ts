import { encodeBase64url, fromHex } from "@licensing/protocol";
import {
  encodeOfflineReceiptBody,
  encodeOfflineRequestBody,
  formatMacBlock,
  MAX_OFFLINE_REQUEST_CHARS,
  OFFLINE_LABELS,
  offlineMacInput,
  parseOfflineResponse,
  type OfflineActivationClaims,
  type OfflineActivationRequest,
  type OfflineDeactivationReceipt,
  type OfflineLabel,
} from "@licensing/protocol/offline";
import { addCertificate, signedByTrusted, trustedKeys } from "../crypto/key-chain.ts";
import type { VerificationKeys } from "../crypto/verify.ts";
import { hmacSha256 } from "../crypto/web-crypto.ts";

/**
 * The machine's side of air-gapped activation (decision 0050): the request and the receipt it writes,
 * and the certificate (the panel's response) it checks. The formats are the protocol's.
 */

/** A certificate that passed every check, with its text as applied. */
export interface TrustedCertificate {
  text: string;
  claims: OfflineActivationClaims;
}

/** Why a response (or a cached certificate) is refused. */
export type CertificateProblem =
  /** Not a `LICENSE ACTIVATION` block, or not its format. */
  | "malformed"
  /** Changed, or signed by another key than the configured one. */
  | "signature-invalid"
  /** Made for another license. */
  | "other-license"
  /** Made for another machine's fingerprint. */
  | "other-machine"
  /** Made for another request than the one this machine is waiting for (or none is). */
  | "other-request"
  /** Its end has passed. */
  | "expired";

/**
 * Verifies a response with the configured key and checks it is this license's and this machine's; with
 * `nonce`, also that it answers that request (a cached certificate is checked without: its request was
 * checked when it was applied).
 */
export async function checkCertificate(
  text: string,
  keys: VerificationKeys,
  owner: { licenseId: string; fingerprint: string; nonce?: string | null },
): Promise<{ ok: true; certificate: TrustedCertificate } | { ok: false; problem: CertificateProblem }> {
  const parsed = parseOfflineResponse(text);
  if (!parsed.ok) return { ok: false, problem: "malformed" };
  // Signed by a configured key, or by a rotated key the client holds a certificate of (decision 0049).
  const trusted = keys instanceof Uint8Array ? trustedKeys(keys) : keys;
  // A response signed by a rotated key carries the root's certificate of it; one no configured key
  // signed is ignored, and the signature check below then fails.
  if (parsed.header.crt !== undefined) await addCertificate(trusted, parsed.header.crt);
  const signed = await signedByTrusted(
    trusted,
    parsed.header.kid,
    parsed.claims.iat,
    parsed.signature,
    parsed.signingInput,
  );
  if (!signed) {
    return { ok: false, problem: "signature-invalid" };
  }
  const { claims } = parsed;
  if (claims.lid !== owner.licenseId) return { ok: false, problem: "other-license" };
  if (claims.fp !== owner.fingerprint) return { ok: false, problem: "other-machine" };
  if (owner.nonce !== undefined && claims.nonce !== owner.nonce)
    return { ok: false, problem: "other-request" };
  return { ok: true, certificate: { text: text.trim(), claims } };
}

const macBlock = async (label: OfflineLabel, licenseKey: string, segment: string) =>
  formatMacBlock(label, segment, fromHex(await hmacSha256(licenseKey)(offlineMacInput(label, segment)))!);

/**
 * The armored request, at most 1,200 characters (one QR code): a machine name that would not fit is
 * shortened, and then the last components are left out (the server only recognises a machine better with
 * them). Returns the text and what had to go.
 */
export async function offlineRequestText(
  licenseKey: string,
  request: OfflineActivationRequest,
): Promise<{ text: string; droppedComponents: string[] }> {
  const fits = (r: OfflineActivationRequest) =>
    // The HMAC has a fixed length: a stand-in of the same size measures the block.
    formatMacBlock(OFFLINE_LABELS.request, encodeOfflineRequestBody(r), new Uint8Array(32)).length <=
    MAX_OFFLINE_REQUEST_CHARS;
  let fitted = request;
  while (!fits(fitted) && fitted.machineName) {
    const name = [...fitted.machineName].slice(0, -8).join("");
    fitted = { ...fitted, machineName: name || null };
  }
  while (!fits(fitted) && fitted.components.length > 0) {
    fitted = { ...fitted, components: fitted.components.slice(0, -1) };
  }
  const dropped = request.components.slice(fitted.components.length).map((c) => c.kind);
  const text = await macBlock(OFFLINE_LABELS.request, licenseKey, encodeOfflineRequestBody(fitted));
  return { text, droppedComponents: dropped };
}

export const offlineReceiptText = (licenseKey: string, receipt: OfflineDeactivationReceipt) =>
  macBlock(OFFLINE_LABELS.receipt, licenseKey, encodeOfflineReceiptBody(receipt));

/** A fresh nonce: 16 random bytes from WebCrypto, in base64url. */
export const newNonce = () => encodeBase64url(globalThis.crypto.getRandomValues(new Uint8Array(16)));
