import { createPrivateKey, randomUUID } from "node:crypto";
import * as ed from "@noble/ed25519";
import { describe, expect, it } from "vitest";
import { generateEd25519KeyPair } from "./ed25519.ts";
import { signLicenseToken, verifyLicenseToken } from "./license-token.ts";
import { signMarker, verifyMarker } from "./marker.ts";

const generated = generateEd25519KeyPair();
const privateKey = createPrivateKey({ key: generated.privateKeyDer, format: "der", type: "pkcs8" });
const payload = {
  lid: randomUUID(),
  aid: randomUUID(),
  fp: "machine-1",
  iat: 1_780_000_000,
  exp: 1_780_604_800,
};

describe("signMarker / verifyMarker", () => {
  const marker = signMarker(payload, privateKey);

  it("writes base64url(JSON).base64url(signature) and verifies it", () => {
    const [body, signature] = marker.split(".");
    expect(marker.split(".")).toHaveLength(2);
    expect(JSON.parse(Buffer.from(body!, "base64url").toString())).toEqual(payload);
    expect(Buffer.from(signature!, "base64url")).toHaveLength(64);
    expect(verifyMarker(marker, generated.publicKeyHex)).toEqual({ valid: true, payload });
  });

  it("verifies with @noble/ed25519 over the ASCII of the first segment, as the SDK does", async () => {
    const [body, signature] = marker.split(".") as [string, string];
    const ok = await ed.verifyAsync(
      Buffer.from(signature, "base64url"),
      new TextEncoder().encode(body),
      Buffer.from(generated.publicKeyHex, "hex"),
    );
    expect(ok).toBe(true);
  });

  it("rejects a changed character, another key, and an expired marker", () => {
    for (let i = 0; i < marker.length; i++) {
      const replacement = marker[i] === "A" ? "B" : "A";
      const tampered = marker.slice(0, i) + replacement + marker.slice(i + 1);
      expect(verifyMarker(tampered, generated.publicKeyHex).valid, `character ${i}`).toBe(false);
    }
    expect(verifyMarker(marker, generateEd25519KeyPair().publicKeyHex)).toEqual({
      valid: false,
      reason: "bad_signature",
    });
    expect(verifyMarker(marker, generated.publicKeyHex, { now: new Date(payload.exp * 1000) })).toEqual({
      valid: false,
      reason: "expired",
    });
  });

  it("is never accepted as a license token, nor a token as a marker", () => {
    expect(verifyLicenseToken(marker, generated.publicKeyHex).valid).toBe(false);
    const token = signLicenseToken(
      {
        iss: "x",
        sub: randomUUID(),
        lid: payload.lid,
        lk: "SVC-00000-00000-00000-00000-00000",
        tpl: "P",
        ver: 1,
        iat: 1,
        exp: 2,
        trial: false,
        hw: { mode: "none", fp: null },
        cfg: { features: [], limits: {} },
      },
      { keyId: randomUUID(), privateKey },
    );
    expect(verifyMarker(token, generated.publicKeyHex).valid).toBe(false);
  });
});
