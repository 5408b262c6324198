import { describe, expect, it } from "vitest";
import { formatLicenseKey, isLicenseKey, isLicenseKeyPrefix } from "./license-key.ts";

const key = formatLicenseKey(Uint8Array.from({ length: 16 }, (_, i) => i * 17));

describe("isLicenseKeyPrefix", () => {
  it("accepts every prefix of a key, the whole key included", () => {
    expect(isLicenseKey(key)).toBe(true);
    for (let length = 0; length <= key.length; length++)
      expect(isLicenseKeyPrefix(key.slice(0, length))).toBe(true);
  });

  it("refuses what no key begins with: lower case, Crockford's missing letters, a misplaced dash, too long", () => {
    for (const text of ["svc-", "SVC-ABCDI", "SVC-ABCDU", "SVC-ABCD-", "SVX", "SVC--", `${key}0`]) {
      expect(isLicenseKeyPrefix(text), text).toBe(false);
    }
  });
});
