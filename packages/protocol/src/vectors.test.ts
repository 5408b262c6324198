import * as ed from "@noble/ed25519";
import { describe, expect, it } from "vitest";
import componentVectors from "../vectors/components.json" with { type: "json" };
import floatingTokenVector from "../vectors/floating-token.json" with { type: "json" };
import leaseTokenVector from "../vectors/lease-token.json" with { type: "json" };
import keyVectors from "../vectors/license-keys.json" with { type: "json" };
import markerVector from "../vectors/marker.json" with { type: "json" };
import signatureVectors from "../vectors/signatures.json" with { type: "json" };
import tokenVector from "../vectors/token.json" with { type: "json" };
import {
  COMPONENT_HASH_PATTERN,
  COMPONENT_KIND_PATTERN,
  componentHashInput,
  decodeBase64urlStrict,
  encodeBase64url,
  decodeLeaseToken,
  encodeLeaseTokenBody,
  encodeMarkerBody,
  encodeTokenSigningInput,
  formatLicenseKey,
  formatSignatureHeader,
  fromHex,
  normalizeLicenseKey,
  parseLeaseToken,
  parseMarker,
  parseSignatureHeader,
  parseToken,
  signingStringV1,
  signingStringV2,
  toHex,
  utf8,
  type LeaseTokenPayload,
  type TokenClaims,
} from "./index.ts";

// WebCrypto, as the SDK computes them: no Node built-ins in the protocol's checks either.
async function hmacHex(key: string, message: string) {
  const k = await crypto.subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", k, utf8(message))));
}
const sha256Hex = async (text: string) =>
  toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(text))));
const publicKey = fromHex(tokenVector.publicKeyHex)!;

describe("golden vectors", () => {
  it("token: encodes the claims to the vector's signing input, parses it back, and verifies", async () => {
    const signingInput = encodeTokenSigningInput(tokenVector.keyId, tokenVector.claims as TokenClaims);
    expect(tokenVector.token.startsWith(`${signingInput}.`)).toBe(true);
    const parsed = parseToken(tokenVector.token);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.token.header).toEqual(tokenVector.header);
    expect(parsed.token.claims).toEqual(tokenVector.claims);
    expect(await ed.verifyAsync(parsed.token.signature, utf8(parsed.token.signingInput), publicKey)).toBe(
      true,
    );
  });

  it("floating token: fm, sm, ls and mb encoded after hw, parsed back, and verified", async () => {
    const claims = floatingTokenVector.claims as TokenClaims;
    const signingInput = encodeTokenSigningInput(floatingTokenVector.keyId, claims);
    expect(floatingTokenVector.token.startsWith(`${signingInput}.`)).toBe(true);
    const parsed = parseToken(floatingTokenVector.token);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.token.claims).toEqual(claims);
    expect(Object.keys(JSON.parse(atob(signingInput.split(".")[1]!)) as object)).toEqual([
      ...["iss", "sub", "lid", "lk", "tpl", "ver", "iat", "exp", "trial", "hw"],
      ...["fm", "sm", "ls", "mb", "cfg"],
    ]);
    expect(await ed.verifyAsync(parsed.token.signature, utf8(parsed.token.signingInput), publicKey)).toBe(
      true,
    );
  });

  it("lease token: encodes the payload to the vector's body, parses it back, and verifies", async () => {
    const payload = leaseTokenVector.payload as LeaseTokenPayload;
    expect(leaseTokenVector.leaseToken.startsWith(`${encodeLeaseTokenBody(payload)}.`)).toBe(true);
    const parsed = parseLeaseToken(leaseTokenVector.leaseToken);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.lease.payload).toEqual(payload);
    expect(await ed.verifyAsync(parsed.lease.signature, utf8(parsed.lease.signingInput), publicKey)).toBe(
      true,
    );
  });

  it("lease token of a rotated key: `kid` after `exp`, parsed back by both parsers", () => {
    const payload = leaseTokenVector.chain.payload as LeaseTokenPayload;
    expect(leaseTokenVector.chain.leaseToken.startsWith(`${encodeLeaseTokenBody(payload)}.`)).toBe(true);
    const parsed = parseLeaseToken(leaseTokenVector.chain.leaseToken);
    expect(parsed.ok && parsed.lease.payload).toEqual(payload);
    const decoded = decodeLeaseToken(leaseTokenVector.chain.leaseToken);
    expect(decoded.ok && decoded.lease.payload).toEqual(payload);
  });

  it("marker: encodes the payload to the vector's body, parses it back, and verifies", async () => {
    expect(markerVector.marker.startsWith(`${encodeMarkerBody(markerVector.payload)}.`)).toBe(true);
    const parsed = parseMarker(markerVector.marker);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.marker.payload).toEqual(markerVector.payload);
    expect(await ed.verifyAsync(parsed.marker.signature, utf8(parsed.marker.signingInput), publicKey)).toBe(
      true,
    );
  });

  it.each(signatureVectors.cases)("signatures: v1 and v2 of $method $path", async (c) => {
    expect(await sha256Hex(c.body)).toBe(c.bodySha256Hex);
    const v2String = signingStringV2({
      timestamp: c.timestamp,
      method: c.method,
      path: c.path,
      bodySha256Hex: c.bodySha256Hex,
    });
    expect(v2String).toBe(c.v2SigningString);
    expect(await hmacHex(c.licenseKey, signingStringV1(c.timestamp))).toBe(c.v1);
    expect(await hmacHex(c.licenseKey, v2String)).toBe(c.v2);
    expect(formatSignatureHeader({ v1: c.v1, v2: c.v2 })).toBe(c.header);
    expect(parseSignatureHeader(c.header)).toEqual({ v1: c.v1, v2: c.v2 });
  });

  it.each(componentVectors.cases)("components: $kind = $value", async (c) => {
    expect(c.kind).toMatch(COMPONENT_KIND_PATTERN);
    const input = componentHashInput(componentVectors.licenseKey, c.kind, c.value);
    expect(input).toBe(c.input);
    expect(await sha256Hex(input)).toBe(c.hash);
    expect(c.hash).toMatch(COMPONENT_HASH_PATTERN);
  });

  it("license keys: formatted from random bytes and normalised from typed input", () => {
    for (const f of keyVectors.formatted) expect(formatLicenseKey(fromHex(f.randomHex)!)).toBe(f.licenseKey);
    for (const n of keyVectors.normalized) expect(normalizeLicenseKey(n.input!)).toBe(n.expected);
  });
});

describe("base64url", () => {
  it("round-trips every length and agrees with the platform's encoder", () => {
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      const text = encodeBase64url(bytes);
      expect(text).toBe(
        btoa(String.fromCharCode(...bytes))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, ""),
      );
      expect(decodeBase64urlStrict(text)).toEqual(bytes);
    }
  });

  it("refuses padding, stray characters, impossible lengths and non-zero unused bits", () => {
    for (const bad of ["QQ==", "Q Q", "Q", "QR", "QQ+", "QQ/"])
      expect(decodeBase64urlStrict(bad), bad).toBeNull();
    expect(decodeBase64urlStrict("QQ")).toEqual(Uint8Array.of(0x41));
  });
});

describe("parse failures", () => {
  it("names why a token or marker does not parse", () => {
    const [h, c, s] = tokenVector.token.split(".") as [string, string, string];
    expect(parseToken(`${h}.${c}`)).toEqual({ ok: false, reason: "malformed" });
    const none = encodeBase64url(JSON.stringify({ alg: "none", typ: "JWT", kid: tokenVector.keyId }));
    expect(parseToken(`${none}.${c}.${s}`)).toEqual({ ok: false, reason: "unsupported_header" });
    const crit = encodeBase64url(JSON.stringify({ ...tokenVector.header, crit: ["exp"] }));
    expect(parseToken(`${crit}.${c}.${s}`)).toEqual({ ok: false, reason: "unsupported_header" });
    const noCfg = encodeBase64url(JSON.stringify({ ...tokenVector.claims, cfg: undefined }));
    expect(parseToken(`${h}.${noCfg}.${s}`)).toEqual({ ok: false, reason: "invalid_claims" });
    expect(parseMarker(tokenVector.token)).toEqual({ ok: false, reason: "malformed" });
    expect(parseMarker(`${encodeBase64url("{}")}.${s}`)).toEqual({ ok: false, reason: "invalid_payload" });
  });

  it("keeps lease tokens and markers apart: neither parses as the other", () => {
    expect(parseMarker(leaseTokenVector.leaseToken)).toEqual({ ok: false, reason: "invalid_payload" });
    expect(parseLeaseToken(markerVector.marker)).toEqual({ ok: false, reason: "invalid_payload" });
    expect(parseLeaseToken(tokenVector.token)).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses a signature header without a known version", () => {
    expect(parseSignatureHeader("v3=" + "0".repeat(64))).toBeNull();
    expect(parseSignatureHeader("")).toBeNull();
    expect(parseSignatureHeader("v1=abc")).toBeNull();
  });
});
