const HEX = /^(?:[0-9a-f]{2})*$/i;

export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** The bytes of an even-length hex string, or null when it is not one. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!HEX.test(hex)) return null;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** An Ed25519 public key as the API publishes it: 32 raw bytes in 64 hex characters. */
export const ED25519_PUBLIC_KEY_HEX = /^[0-9a-f]{64}$/i;
