import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSecretBox, SealedValueError, type SealedAt } from "./secret-box.ts";

const key = randomBytes(32);
const box = createSecretBox(key);
const row = (rowId: string): SealedAt => ({ table: "users", column: "totp_secret", rowId });
const A = row("00000000-0000-4000-8000-00000000000a");
const B = row("00000000-0000-4000-8000-00000000000b");

/** The format before v2: AES-256-GCM with no associated data. */
function sealV1(plaintext: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ["v1", ...[iv, cipher.getAuthTag(), body].map((p) => p.toString("base64url"))].join(".");
}

describe("createSecretBox", () => {
  it("seals as v2 and opens at the same place only", () => {
    const sealed = box.seal("secret", A);
    expect(sealed).toMatch(/^v2\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(box.open(sealed, A).toString()).toBe("secret");
    expect(() => box.open(sealed, B)).toThrow(SealedValueError);
    expect(() => box.open(sealed, { ...A, column: "secret_sealed" })).toThrow(
      /sealed for another row or column/,
    );
    expect(() => createSecretBox(randomBytes(32)).open(sealed, A)).toThrow(/another master key/);
  });

  it("refuses a tag shorter than 16 bytes, even the genuine tag cut short", () => {
    const [version, iv, tag, body] = box.seal("secret", A).split(".");
    for (const bytes of [4, 8, 12, 15]) {
      const short = Buffer.from(tag!, "base64url").subarray(0, bytes).toString("base64url");
      expect(() => box.open([version, iv, short, body].join("."), A), `${bytes} bytes`).toThrow(
        /is not a sealed value/,
      );
    }
  });

  it("refuses the v1 format when opening; reseal reads it once, into v2 bound to the row", () => {
    const legacy = sealV1("secret");
    expect(() => box.open(legacy, A)).toThrow(/retired v1 format/);
    const upgraded = box.reseal(legacy, A);
    expect(upgraded.startsWith("v2.")).toBe(true);
    expect(box.open(upgraded, A).toString()).toBe("secret");
    expect(() => box.open(upgraded, B)).toThrow(SealedValueError);
  });

  it("reseals under another key, and refuses what it cannot open", () => {
    const other = createSecretBox(randomBytes(32));
    const moved = box.reseal(box.seal("secret", A), A, other);
    expect(other.open(moved, A).toString()).toBe("secret");
    expect(() => other.reseal(box.seal("secret", A), A)).toThrow(SealedValueError);
    expect(() => box.open("not sealed", A)).toThrow(/is not a sealed value/);
  });
});
