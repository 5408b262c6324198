const BASE64URL = /^[A-Za-z0-9_-]*$/;

export const encodeBase64url = (value: Buffer | string) =>
  (typeof value === "string" ? Buffer.from(value, "utf8") : value).toString("base64url");

/**
 * Decodes base64url, or returns null unless `text` is the one canonical encoding of its bytes. Node's
 * decoder is lenient (it ignores stray characters and the unused low bits of the last character), so
 * without this check a token with a changed character could still verify.
 */
export function decodeBase64urlStrict(text: string): Buffer | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : null;
}

/** Parses a base64url JSON segment into a plain object, or null. */
export function decodeJsonSegment(segment: string): Record<string, unknown> | null {
  const bytes = decodeBase64urlStrict(segment);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
