import { createPrivateKey, randomUUID } from "node:crypto";
import * as ed from "@noble/ed25519";
import type { LicenseTokenClaims } from "@licensing/contracts";
import { compactVerify, importJWK, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { encodeBase64url } from "@licensing/protocol";
import { generateEd25519KeyPair, publicKeyFromHex } from "./ed25519.ts";
import { signLicenseToken, unixSeconds, verifyLicenseToken } from "./license-token.ts";

const keyPair = () => {
  const generated = generateEd25519KeyPair();
  const privateKey = createPrivateKey({ key: generated.privateKeyDer, format: "der", type: "pkcs8" });
  return { ...generated, privateKey, keyId: randomUUID() };
};

const issuedAt = new Date("2026-03-01T12:00:00Z");
const claims: LicenseTokenClaims = {
  iss: "https://licensing.example.com",
  sub: randomUUID(),
  lid: randomUUID(),
  lk: "SVC-ABCDE-FGHJK-MNPQR-STVWX-YZ012",
  tpl: "PRO-DESKTOP",
  ver: 1,
  iat: unixSeconds(issuedAt),
  exp: unixSeconds(issuedAt) + 365 * 86_400,
  trial: false,
  hw: { mode: "fixed", fp: "f1ngerprint" },
  cfg: { features: ["export", "sync"], limits: { maxSeats: 3 }, edition: "pro" },
};

/** How a third party verifies: jose with nothing but the hex public key the API returns. */
const joseKeyFromHex = (hex: string) =>
  importJWK({ kty: "OKP", crv: "Ed25519", x: Buffer.from(hex, "hex").toString("base64url") }, "EdDSA");

describe("signLicenseToken", () => {
  const key = keyPair();
  const token = signLicenseToken(claims, key);

  it("writes a JWS compact token with the header and claims of docs/client-protocol.md", () => {
    const [header, payload, signature] = token.split(".");
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({
      alg: "EdDSA",
      typ: "JWT",
      kid: key.keyId,
    });
    expect(Object.keys(JSON.parse(Buffer.from(payload!, "base64url").toString()))).toEqual([
      "iss",
      "sub",
      "lid",
      "lk",
      "tpl",
      "ver",
      "iat",
      "exp",
      "trial",
      "hw",
      "cfg",
    ]);
    expect(Buffer.from(signature!, "base64url")).toHaveLength(64);
  });

  it("verifies with jose using only the hex public key", async () => {
    const publicKey = await joseKeyFromHex(key.publicKeyHex);
    const { payload, protectedHeader } = await jwtVerify(token, publicKey, {
      algorithms: ["EdDSA"],
      currentDate: issuedAt,
    });
    expect(protectedHeader).toEqual({ alg: "EdDSA", typ: "JWT", kid: key.keyId });
    expect(payload).toEqual(claims);
  });

  it("is byte-identical to the same signing input signed with @noble/ed25519", async () => {
    const seed = Buffer.from(key.privateKey.export({ format: "jwk" }).d!, "base64url");
    expect(Buffer.from(await ed.getPublicKeyAsync(seed)).toString("hex")).toBe(key.publicKeyHex);
    const signingInput = token.slice(0, token.lastIndexOf("."));
    const nobleSignature = await ed.signAsync(new TextEncoder().encode(signingInput), seed);
    expect(`${signingInput}.${encodeBase64url(Buffer.from(nobleSignature))}`).toBe(token);
  });

  it("gives the same token for the same claims and key", () => {
    expect(signLicenseToken({ ...claims }, key)).toBe(token);
  });
});

describe("verifyLicenseToken", () => {
  const key = keyPair();
  const token = signLicenseToken(claims, key);

  it("accepts the token with the KeyObject or the hex public key and returns its claims", () => {
    for (const publicKey of [key.publicKeyHex, publicKeyFromHex(key.publicKeyHex)]) {
      const result = verifyLicenseToken(token, publicKey, { keyId: key.keyId, now: issuedAt });
      expect(result).toEqual({ valid: true, header: expect.objectContaining({ kid: key.keyId }), claims });
    }
  });

  it("rejects every token with one character changed", () => {
    for (let i = 0; i < token.length; i++) {
      for (const replacement of flips(token[i]!)) {
        const tampered = token.slice(0, i) + replacement + token.slice(i + 1);
        const result = verifyLicenseToken(tampered, key.publicKeyHex);
        expect(result.valid, `character ${i}: ${token[i]} -> ${replacement}`).toBe(false);
      }
    }
  });

  it("rejects a token with one bit of its decoded signature flipped", () => {
    const [h, p, s] = token.split(".") as [string, string, string];
    const signature = Buffer.from(s, "base64url");
    for (let byte = 0; byte < signature.length; byte++) {
      const flipped = Buffer.from(signature);
      flipped[byte]! ^= 1;
      expect(verifyLicenseToken(`${h}.${p}.${flipped.toString("base64url")}`, key.publicKeyHex)).toEqual({
        valid: false,
        reason: "bad_signature",
      });
    }
  });

  it("rejects alg none, other algorithms, crit headers and a missing signature", () => {
    const [, p] = token.split(".") as [string, string, string];
    const header = (h: object) => encodeBase64url(JSON.stringify(h));
    const none = `${header({ alg: "none", typ: "JWT", kid: key.keyId })}.${p}.`;
    expect(verifyLicenseToken(none, key.publicKeyHex).valid).toBe(false);
    const hs = `${header({ alg: "HS256", typ: "JWT", kid: key.keyId })}.${p}.${token.split(".")[2]}`;
    expect(verifyLicenseToken(hs, key.publicKeyHex)).toEqual({ valid: false, reason: "unsupported_header" });
    const crit = header({ alg: "EdDSA", typ: "JWT", kid: key.keyId, crit: ["exp"] });
    expect(verifyLicenseToken(`${crit}.${p}.${token.split(".")[2]}`, key.publicKeyHex).valid).toBe(false);
    expect(verifyLicenseToken(token.split(".").slice(0, 2).join("."), key.publicKeyHex)).toEqual({
      valid: false,
      reason: "malformed",
    });
  });

  it("rejects a token signed by another key, and a kid that names another key", async () => {
    const other = keyPair();
    expect(verifyLicenseToken(token, other.publicKeyHex)).toEqual({ valid: false, reason: "bad_signature" });
    expect(verifyLicenseToken(token, key.publicKeyHex, { keyId: other.keyId })).toEqual({
      valid: false,
      reason: "wrong_key",
    });
    const forged = signLicenseToken(claims, { ...other, keyId: key.keyId });
    expect(verifyLicenseToken(forged, key.publicKeyHex).valid).toBe(false);
    await expect(compactVerify(forged, await joseKeyFromHex(key.publicKeyHex))).rejects.toThrow();
  });

  it("rejects a token at and after its exp when given the time", () => {
    const expiry = new Date(claims.exp * 1000);
    expect(
      verifyLicenseToken(token, key.publicKeyHex, { now: new Date(expiry.getTime() - 1000) }).valid,
    ).toBe(true);
    expect(verifyLicenseToken(token, key.publicKeyHex, { now: expiry })).toEqual({
      valid: false,
      reason: "expired",
    });
  });

  it("rejects a correctly signed token whose claims do not have the documented shape", () => {
    const { cfg: _cfg, ...withoutConfig } = claims;
    const bad = signLicenseToken(withoutConfig as LicenseTokenClaims, key);
    expect(verifyLicenseToken(bad, key.publicKeyHex)).toEqual({ valid: false, reason: "invalid_claims" });
  });
});

/** Replacements for one character: a neighbour in the alphabet, and a character outside it. */
function flips(char: string) {
  const code = char.charCodeAt(0);
  return [String.fromCharCode(code ^ 1), char === "A" ? "B" : "A", "!"].filter((c) => c !== char);
}
