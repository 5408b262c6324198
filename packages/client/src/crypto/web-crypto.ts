import { toHex, utf8 } from "@licensing/protocol";

/** SHA-256 and HMAC-SHA256 through WebCrypto (`globalThis.crypto.subtle`): Node, Electron and browsers alike. */
const subtle = () => {
  const api = globalThis.crypto?.subtle;
  if (!api) throw new Error("WebCrypto (globalThis.crypto.subtle) is not available in this runtime");
  return api;
};

export const sha256Hex = async (text: string) =>
  toHex(new Uint8Array(await subtle().digest("SHA-256", utf8(text))));

/** An HMAC-SHA256 signer keyed once with the UTF-8 of `key`. */
export function hmacSha256(key: string): (message: string) => Promise<string> {
  let imported: ReturnType<ReturnType<typeof subtle>["importKey"]> | undefined;
  return async (message) => {
    imported ??= subtle().importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return toHex(new Uint8Array(await subtle().sign("HMAC", await imported, utf8(message))));
  };
}
