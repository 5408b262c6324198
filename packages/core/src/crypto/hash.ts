import { createHash, randomBytes } from "node:crypto";

export const sha256Hex = (value: string | Buffer) => createHash("sha256").update(value).digest("hex");

/** A url-safe random secret of `bytes` random bytes. */
export const randomSecret = (bytes = 32) => randomBytes(bytes).toString("base64url");
