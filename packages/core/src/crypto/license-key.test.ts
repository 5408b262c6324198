import { describe, expect, it } from "vitest";
import {
  generateLicenseKey,
  generateLicenseKeys,
  isLicenseKey,
  LICENSE_KEY_PATTERN,
  normalizeLicenseKey,
} from "./license-key.ts";

describe("generateLicenseKey", () => {
  it("writes SVC- and five groups of five Crockford base32 characters", () => {
    for (let i = 0; i < 200; i++) {
      const key = generateLicenseKey();
      expect(key).toMatch(
        /^SVC-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/,
      );
      expect(key).toHaveLength(33);
      expect(isLicenseKey(key)).toBe(true);
    }
  });

  it("draws 125 random bits: no collisions and every character of the alphabet in use", () => {
    const keys = Array.from({ length: 20_000 }, generateLicenseKey);
    expect(new Set(keys).size).toBe(keys.length);
    const seen = new Set(keys.join("").replace(/^SVC|-|SVC/g, ""));
    expect(seen.size).toBe(32);
    // Every position varies (no constant leading or trailing bits).
    for (let position = 4; position < 33; position++) {
      if (position % 6 === 3) continue;
      expect(new Set(keys.map((k) => k[position])).size, `position ${position}`).toBe(32);
    }
  });

  it("draws a bulk's keys at once, each from its own 16 bytes", () => {
    const batches = Array.from({ length: 100 }, () => generateLicenseKeys(200));
    const keys = batches.flat();
    expect(keys).toHaveLength(20_000);
    expect(keys.every(isLicenseKey)).toBe(true);
    expect(new Set(keys).size).toBe(keys.length);
    for (let position = 4; position < 33; position++) {
      if (position % 6 === 3) continue;
      expect(new Set(keys.map((k) => k[position])).size, `position ${position}`).toBe(32);
    }
  });
});

describe("normalizeLicenseKey", () => {
  it("upper-cases, trims and reads look-alike letters as digits", () => {
    const key = generateLicenseKey();
    expect(normalizeLicenseKey(` ${key.toLowerCase()} `)).toBe(key);
    expect(normalizeLicenseKey("svc-oooo1-iiiil-00000-11111-ABCDE")).toBe(
      "SVC-00001-11111-00000-11111-ABCDE",
    );
  });

  it("returns null for anything that cannot be a key", () => {
    for (const bad of [
      "",
      "SVC-",
      "SVC-ABCDE-ABCDE-ABCDE-ABCDE",
      "XYZ-ABCDE-ABCDE-ABCDE-ABCDE-ABCDE",
      "SVC-ABCDE-ABCDE-ABCDE-ABCDE-ABCDU",
    ]) {
      expect(normalizeLicenseKey(bad), bad).toBeNull();
    }
    expect(LICENSE_KEY_PATTERN.test("SVC-ABCDE-ABCDE-ABCDE-ABCDE-ABCDE\n")).toBe(false);
  });
});
