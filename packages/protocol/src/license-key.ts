/** Crockford's base32: no I, L, O or U, so a key read aloud or retyped stays unambiguous. */
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const LICENSE_KEY_PREFIX = "SVC-";
const GROUPS = 5;
const GROUP_LENGTH = 5;
export const LICENSE_KEY_PATTERN = /^SVC(-[0-9A-HJKMNP-TV-Z]{5}){5}$/;
/** Random bytes a key is made from; the first 125 bits are used. */
export const LICENSE_KEY_RANDOM_BYTES = 16;

/**
 * A license key (docs/client-protocol.md) from 16 random bytes: `SVC-` and five groups of five Crockford base32
 * characters, 125 bits. The key is also the client's HMAC secret, so the bytes must come from a CSPRNG.
 */
export function formatLicenseKey(random: Uint8Array): string {
  if (random.length !== LICENSE_KEY_RANDOM_BYTES) throw new RangeError("A license key takes 16 random bytes");
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  bits >>= 3n;
  let chars = "";
  for (let i = 0; i < GROUPS * GROUP_LENGTH; i++) {
    chars += CROCKFORD[Number(bits & 31n)]!;
    bits >>= 5n;
  }
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) groups.push(chars.slice(g * GROUP_LENGTH, (g + 1) * GROUP_LENGTH));
  return LICENSE_KEY_PREFIX + groups.join("-");
}

/**
 * The canonical form of a key a person typed: upper case, surrounding blanks removed, and Crockford's
 * look-alikes read as digits (O → 0, I and L → 1). Null when it cannot be a license key.
 */
export function normalizeLicenseKey(input: string): string | null {
  const [prefix, ...groups] = input.trim().toUpperCase().split("-");
  const key = [prefix, ...groups.map((g) => g.replace(/O/g, "0").replace(/[IL]/g, "1"))].join("-");
  return LICENSE_KEY_PATTERN.test(key) ? key : null;
}

export const isLicenseKey = (value: string) => LICENSE_KEY_PATTERN.test(value);

/** A key's shape, `#` standing for one Crockford character: `SVC-#####-#####-#####-#####-#####`. */
const KEY_SHAPE =
  LICENSE_KEY_PREFIX + Array.from({ length: GROUPS }, () => "#".repeat(GROUP_LENGTH)).join("-");

/** True when `text` (upper case, as keys are written) can begin a license key: a key-prefix search may match. */
export const isLicenseKeyPrefix = (text: string): boolean =>
  text.length <= KEY_SHAPE.length &&
  [...text].every((ch, i) => (KEY_SHAPE[i] === "#" ? CROCKFORD.includes(ch) : ch === KEY_SHAPE[i]));
