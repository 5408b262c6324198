import { createPrivateKey } from "node:crypto";
import type { LicenseTokenClaims, OfflineMarkerPayload } from "@licensing/contracts";
import type { LeaseTokenPayload } from "@licensing/protocol";
import floatingTokenVector from "@licensing/protocol/vectors/floating-token.json" with { type: "json" };
import keyVectors from "@licensing/protocol/vectors/license-keys.json" with { type: "json" };
import leaseTokenVector from "@licensing/protocol/vectors/lease-token.json" with { type: "json" };
import markerVector from "@licensing/protocol/vectors/marker.json" with { type: "json" };
import signatureVectors from "@licensing/protocol/vectors/signatures.json" with { type: "json" };
import tokenVector from "@licensing/protocol/vectors/token.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { signLeaseToken, verifyLeaseToken } from "./lease-token.ts";
import { normalizeLicenseKey } from "./license-key.ts";
import { signLicenseToken, verifyLicenseToken } from "./license-token.ts";
import { signMarker, verifyMarker } from "./marker.ts";
import { signatureV1, signatureV2, signRequest, verifyRequestSignature } from "./request-signature.ts";

// The protocol's golden vectors, which the SDK checks too: what the server writes must match them byte
// for byte, and what they hold must verify here.
const privateKey = createPrivateKey({
  key: {
    kty: "OKP",
    crv: "Ed25519",
    d: Buffer.from(tokenVector.privateKeySeedHex, "hex").toString("base64url"),
    x: Buffer.from(tokenVector.publicKeyHex, "hex").toString("base64url"),
  },
  format: "jwk",
});

describe("golden vectors of @licensing/protocol", () => {
  it("signs the token byte for byte and verifies it", () => {
    const claims = tokenVector.claims as LicenseTokenClaims;
    expect(signLicenseToken(claims, { keyId: tokenVector.keyId, privateKey })).toBe(tokenVector.token);
    const verified = verifyLicenseToken(tokenVector.token, tokenVector.publicKeyHex, {
      keyId: tokenVector.keyId,
    });
    expect(verified).toEqual({ valid: true, header: tokenVector.header, claims: tokenVector.claims });
  });

  it("signs a floating license's token (fm, sm, ls, mb) byte for byte", () => {
    const claims = floatingTokenVector.claims as LicenseTokenClaims;
    expect(signLicenseToken(claims, { keyId: floatingTokenVector.keyId, privateKey })).toBe(
      floatingTokenVector.token,
    );
  });

  it("signs the lease token byte for byte and verifies it", () => {
    const payload = leaseTokenVector.payload as LeaseTokenPayload;
    expect(signLeaseToken(payload, privateKey)).toBe(leaseTokenVector.leaseToken);
    expect(verifyLeaseToken(leaseTokenVector.leaseToken, leaseTokenVector.publicKeyHex)).toEqual({
      valid: true,
      payload,
    });
    expect(verifyMarker(leaseTokenVector.leaseToken, leaseTokenVector.publicKeyHex)).toEqual({
      valid: false,
      reason: "invalid_payload",
    });
  });

  it("signs the marker byte for byte and verifies it", () => {
    expect(markerVector.publicKeyHex).toBe(tokenVector.publicKeyHex);
    const payload = markerVector.payload as OfflineMarkerPayload;
    expect(signMarker(payload, privateKey)).toBe(markerVector.marker);
    expect(verifyMarker(markerVector.marker, markerVector.publicKeyHex)).toEqual({ valid: true, payload });
  });

  it("computes the v1 and v2 request signatures and accepts them", () => {
    for (const c of signatureVectors.cases) {
      const parts = { method: c.method, path: c.path, body: c.body };
      expect(signatureV1(c.licenseKey, c.timestamp)).toBe(c.v1);
      expect(signatureV2(c.licenseKey, c.timestamp, parts)).toBe(c.v2);
      expect(signRequest(c.licenseKey, c.timestamp, parts)).toBe(c.header);
      const now = new Date(Number(c.timestamp) * 1000);
      expect(() =>
        verifyRequestSignature(c.licenseKey, { timestamp: c.timestamp, signature: c.header }, parts, now),
      ).not.toThrow();
    }
  });

  it("normalises typed license keys as the vectors say", () => {
    for (const { input, expected } of keyVectors.normalized)
      expect(normalizeLicenseKey(input)).toBe(expected);
  });
});
