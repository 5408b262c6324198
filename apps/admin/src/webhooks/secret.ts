const SECRET_BYTES = 24;

/** A random 32-character signing secret: 24 bytes from the browser's CSPRNG, in base64url. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_");
}
