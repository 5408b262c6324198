const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUES = new Map([...ALPHABET].map((c, i) => [c, i]));
const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => utf8Encoder.encode(text);

/** base64url without padding (RFC 4648 §5) of bytes, or of a string's UTF-8. */
export function encodeBase64url(value: Uint8Array | string): string {
  const bytes = typeof value === "string" ? utf8(value) : value;
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * The bytes of `text`, or null unless it is the one canonical unpadded base64url encoding of them: no
 * padding, no stray characters, and zero unused low bits in the last character. Lenient decoders accept
 * several spellings of the same bytes, so without this a token with a changed character could still verify.
 */
export function decodeBase64urlStrict(text: string): Uint8Array<ArrayBuffer> | null {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (const c of text) {
    const v = VALUES.get(c);
    if (v === undefined) return null;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  if (bits > 0 && (buffer & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

/** JSON text holding an object, parsed; null when it is not JSON or not an object. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A base64url segment holding a JSON object, parsed; null when any step fails (bytes, UTF-8, JSON, shape). */
export function decodeJsonSegment(segment: string): Record<string, unknown> | null {
  const bytes = decodeBase64urlStrict(segment);
  if (!bytes) return null;
  try {
    return parseJsonObject(utf8Decoder.decode(bytes));
  } catch {
    return null;
  }
}
