import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { fail } from "../errors.ts";

/** ±5 minutes (spec §5, §8). */
export const SIGNATURE_WINDOW_SECONDS = 300;

export interface SignedRequestParts {
  method: string;
  /** The request path without query, e.g. `/api/v1/client/heartbeat`. */
  path: string;
  /** The raw body bytes exactly as received. */
  body: Buffer | string;
}

const hmacHex = (key: string, message: string) => createHmac("sha256", key).update(message).digest("hex");

/** v1 (spec §5): HMAC-SHA256 of the timestamp, keyed with the license key. */
export const signatureV1 = (licenseKey: string, timestamp: string) => hmacHex(licenseKey, timestamp);

/** v2: also binds method, path and body, so a captured request cannot be replayed with another body. */
export function signatureV2(licenseKey: string, timestamp: string, parts: SignedRequestParts) {
  const bodyHash = createHash("sha256").update(parts.body).digest("hex");
  return hmacHex(licenseKey, `${timestamp}.${parts.method.toUpperCase()}.${parts.path}.${bodyHash}`);
}

/** The `X-Service-Signature` value a client sends: both versions, comma-separated. */
export const signRequest = (licenseKey: string, timestamp: string, parts: SignedRequestParts) =>
  `v1=${signatureV1(licenseKey, timestamp)},v2=${signatureV2(licenseKey, timestamp, parts)}`;

function parseSignatureHeader(header: string) {
  const versions: Partial<Record<"v1" | "v2", string>> = {};
  for (const item of header.split(",")) {
    const match = /^\s*(v1|v2)=([0-9a-f]{64})\s*$/i.exec(item);
    if (!match) return null;
    versions[match[1]!.toLowerCase() as "v1" | "v2"] = match[2]!.toLowerCase();
  }
  return versions;
}

const sameHex = (a: string, b: string) => timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));

/** CLIENT_SIGNATURE_MIN_VERSION: `v1` accepts a v1 signature alone (spec §5), `v2` demands a valid v2. */
export type SignatureVersion = "v1" | "v2";

/**
 * Checks `X-Service-Timestamp` and `X-Service-Signature` against the license key and returns the version
 * that vouched for the request. When a v2 signature is present it must match (a v1 alongside it is not
 * enough); a v1-only request is accepted for older clients unless `minVersion` is `v2`, because v1 covers
 * only the timestamp and can be replayed against another activation within the window. Each failure has
 * its own 401 code.
 */
export function verifyRequestSignature(
  licenseKey: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  parts: SignedRequestParts,
  now: Date,
  minVersion: SignatureVersion = "v1",
): SignatureVersion {
  const { timestamp, signature } = headers;
  if (!timestamp || !signature) {
    fail("hmac.missing", "X-Service-Timestamp and X-Service-Signature headers are required");
  }
  if (!/^\d{1,12}$/.test(timestamp!)) fail("hmac.malformed", "X-Service-Timestamp must be unix seconds");
  const versions = parseSignatureHeader(signature!);
  if (!versions || (!versions.v1 && !versions.v2)) {
    fail(
      "hmac.malformed",
      "X-Service-Signature must be `v1=<hex>` and/or `v2=<hex>` (HMAC-SHA256, 64 hex digits)",
    );
  }
  const skew = Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp));
  if (skew > SIGNATURE_WINDOW_SECONDS) {
    fail(
      "hmac.stale",
      `X-Service-Timestamp is ${skew} s away from the server's clock (at most 300 s allowed)`,
    );
  }
  if (!versions!.v2 && minVersion === "v2") {
    fail(
      "hmac.v2_required",
      "This server accepts only v2 request signatures (X-Service-Signature: v2=<hex>); update the client",
    );
  }
  const ok = versions!.v2
    ? sameHex(versions!.v2, signatureV2(licenseKey, timestamp!, parts))
    : sameHex(versions!.v1!, signatureV1(licenseKey, timestamp!));
  if (!ok) fail("hmac.mismatch", "X-Service-Signature does not match this request");
  return versions!.v2 ? "v2" : "v1";
}
