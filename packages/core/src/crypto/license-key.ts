import { randomBytes } from "node:crypto";
import { formatLicenseKey, LICENSE_KEY_RANDOM_BYTES } from "@licensing/protocol";

export {
  isLicenseKey,
  isLicenseKeyPrefix,
  LICENSE_KEY_PATTERN,
  LICENSE_KEY_PREFIX,
  normalizeLicenseKey,
} from "@licensing/protocol";

/**
 * A new license key (docs/client-protocol.md), formatted by the protocol from CSPRNG bytes: the key is also
 * the client's HMAC secret, so it must be unguessable.
 */
export const generateLicenseKey = (): string => generateLicenseKeys(1)[0]!;

/** `count` new license keys from one draw of CSPRNG bytes (a bulk issue: one call instead of one a key). */
export function generateLicenseKeys(count: number): string[] {
  const random = randomBytes(LICENSE_KEY_RANDOM_BYTES * count);
  return Array.from({ length: count }, (_, i) =>
    formatLicenseKey(random.subarray(i * LICENSE_KEY_RANDOM_BYTES, (i + 1) * LICENSE_KEY_RANDOM_BYTES)),
  );
}
