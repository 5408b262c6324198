import {
  formatSignatureHeader,
  SIGNATURE_HEADERS,
  signingStringV1,
  signingStringV2,
} from "@licensing/protocol";
import { hmacSha256, sha256Hex } from "../crypto/web-crypto.ts";

/**
 * Signs client requests (spec §5 Client HMAC) with both versions: v1 over the timestamp, as the spec
 * says, and v2 over timestamp, method, path and body, so a captured header signs nothing else.
 */
export function requestSigner(licenseKey: string) {
  const hmac = hmacSha256(licenseKey);
  return async (request: { timestampSeconds: number; method: string; path: string; body: string }) => {
    const timestamp = String(request.timestampSeconds);
    const v2String = signingStringV2({
      timestamp,
      method: request.method,
      path: request.path,
      bodySha256Hex: await sha256Hex(request.body),
    });
    const [v1, v2] = await Promise.all([hmac(signingStringV1(timestamp)), hmac(v2String)]);
    return {
      [SIGNATURE_HEADERS.timestamp]: timestamp,
      [SIGNATURE_HEADERS.signature]: formatSignatureHeader({ v1, v2 }),
    };
  };
}
