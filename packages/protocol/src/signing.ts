/** Headers of a signed client request (spec §5 Client HMAC); lower case, as HTTP/2 and Node spell them. */
export const SIGNATURE_HEADERS = {
  timestamp: "x-service-timestamp",
  signature: "x-service-signature",
} as const;

/** ±5 minutes (spec §5, §8). */
export const SIGNATURE_WINDOW_SECONDS = 300;

export type SignatureVersion = "v1" | "v2";

/** What an HMAC-SHA256 keyed with the license key signs, per version. */
export interface SigningParts {
  /** Unix seconds, as sent in X-Service-Timestamp. */
  timestamp: string;
  method: string;
  /** The request path without query, e.g. `/api/v1/client/heartbeat`. */
  path: string;
  /** Lowercase hex SHA-256 of the raw body bytes exactly as sent. */
  bodySha256Hex: string;
}

/** v1 (spec §5): the timestamp alone. Kept for older clients; it binds nothing else. */
export const signingStringV1 = (timestamp: string) => timestamp;

/** v2: also binds method, path and body, so a captured header cannot sign another request. */
export const signingStringV2 = (parts: SigningParts) =>
  `${parts.timestamp}.${parts.method.toUpperCase()}.${parts.path}.${parts.bodySha256Hex}`;

/** The `X-Service-Signature` value: `v1=<hex>,v2=<hex>`, either part optional. */
export const formatSignatureHeader = (signatures: Partial<Record<SignatureVersion, string>>) =>
  (["v1", "v2"] as const)
    .filter((v) => signatures[v] !== undefined)
    .map((v) => `${v}=${signatures[v]}`)
    .join(",");

/** The versions in an `X-Service-Signature` value (hex lower-cased), or null when it is malformed. */
export function parseSignatureHeader(header: string): Partial<Record<SignatureVersion, string>> | null {
  const versions: Partial<Record<SignatureVersion, string>> = {};
  for (const item of header.split(",")) {
    const match = /^\s*(v1|v2)=([0-9a-f]{64})\s*$/i.exec(item);
    if (!match) return null;
    versions[match[1]!.toLowerCase() as SignatureVersion] = match[2]!.toLowerCase();
  }
  return versions.v1 || versions.v2 ? versions : null;
}

/** Well-formed X-Service-Timestamp: unix seconds. */
export const TIMESTAMP_PATTERN = /^\d{1,12}$/;
