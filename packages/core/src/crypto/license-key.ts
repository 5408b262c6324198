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
export const generateLicenseKey = (): string => formatLicenseKey(randomBytes(LICENSE_KEY_RANDOM_BYTES));
