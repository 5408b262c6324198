import { decodeBase64urlStrict, decodeJsonSegment } from "./base64url.ts";

/**
 * The segments of a license token (JWS compact) or a marker, decoded but not checked against a schema:
 * canonical base64url, JSON objects, a 64-byte signature. Null when the text is not shaped so.
 */
export function decodeTokenSegments(token: string) {
  const segments = token.split(".");
  if (segments.length !== 3) return null;
  const [encodedHeader, encodedClaims, encodedSignature] = segments as [string, string, string];
  const rawHeader = decodeJsonSegment(encodedHeader);
  const rawClaims = decodeJsonSegment(encodedClaims);
  const signature = decodeBase64urlStrict(encodedSignature);
  if (!rawHeader || !rawClaims || !signature || signature.length !== 64) return null;
  return { rawHeader, rawClaims, signingInput: `${encodedHeader}.${encodedClaims}`, signature };
}

export function decodeMarkerSegments(marker: string) {
  const segments = marker.split(".");
  if (segments.length !== 2) return null;
  const [body, encodedSignature] = segments as [string, string];
  const raw = decodeJsonSegment(body);
  const signature = decodeBase64urlStrict(encodedSignature);
  if (!raw || !signature || signature.length !== 64) return null;
  return { raw, signingInput: body, signature };
}
