import { LicenseTokenClaims } from "@licensing/contracts";

/** The token's claims as anyone holding the `.lic` file can read them (the signature is checked by the SDK). */
export function decodeClaims(token: string): LicenseTokenClaims | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const parsed = LicenseTokenClaims.safeParse(JSON.parse(new TextDecoder().decode(bytes)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
