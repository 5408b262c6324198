import { createPrivateKey } from "node:crypto";
import type { LicenseTokenClaims, OfflineMarkerPayload } from "@licensing/contracts";
import type { LeaseTokenPayload } from "@licensing/protocol";
import floatingTokenVector from "@licensing/protocol/vectors/floating-token.json" with { type: "json" };
import chain from "@licensing/protocol/vectors/key-chain.json" with { type: "json" };
import keyVectors from "@licensing/protocol/vectors/license-keys.json" with { type: "json" };
import leaseTokenVector from "@licensing/protocol/vectors/lease-token.json" with { type: "json" };
import markerVector from "@licensing/protocol/vectors/marker.json" with { type: "json" };
import offlineVector from "@licensing/protocol/vectors/offline.json" with { type: "json" };
import {
  parseOfflineReceipt,
  parseOfflineRequest,
  type OfflineActivationClaims,
} from "@licensing/protocol/offline";
import revocationVector from "@licensing/protocol/vectors/revocation.json" with { type: "json" };
import signatureVectors from "@licensing/protocol/vectors/signatures.json" with { type: "json" };
import tokenVector from "@licensing/protocol/vectors/token.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { signLeaseToken, verifyLeaseToken } from "./lease-token.ts";
import { normalizeLicenseKey } from "./license-key.ts";
import { signLicenseToken, verifyLicenseToken } from "./license-token.ts";
import { signMarker, verifyMarker } from "./marker.ts";
import { offlineMacMatches, signOfflineResponse, verifyOfflineResponse } from "./offline.ts";
import { signatureV1, signatureV2, signRequest, verifyRequestSignature } from "./request-signature.ts";
import {
  signCertificate,
  signRevocation,
  signRevocationList,
  verifyCertificate,
} from "./signed-documents.ts";

// The protocol's golden vectors, which the SDK checks too: what the server writes must match them byte
// for byte, and what they hold must verify here.
const keyFrom = (seedHex: string, publicKeyHex: string) =>
  createPrivateKey({
    key: {
      kty: "OKP",
      crv: "Ed25519",
      d: Buffer.from(seedHex, "hex").toString("base64url"),
      x: Buffer.from(publicKeyHex, "hex").toString("base64url"),
    },
    format: "jwk",
  });
const privateKey = keyFrom(tokenVector.privateKeySeedHex, tokenVector.publicKeyHex);
const third = keyFrom(chain.third.privateKeySeedHex, chain.third.publicKeyHex);

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

  it("signs a lease token of a rotated key (kid after exp) byte for byte, through the key chain", () => {
    const payload = leaseTokenVector.chain.payload as LeaseTokenPayload;
    const third = keyFrom(chain.third.privateKeySeedHex, chain.third.publicKeyHex);
    expect(signLeaseToken(payload, third)).toBe(leaseTokenVector.chain.leaseToken);
    expect(leaseTokenVector.chain.certificate).toBe(chain.certificates.third);
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

  it("certifies the rotated keys byte for byte, and a certificate verifies with the root only", () => {
    const root = { keyId: chain.root.keyId, privateKey };
    for (const name of ["second", "third", "secondRetired"] as const) {
      expect(signCertificate(root, chain.certificatePayloads[name])).toBe(chain.certificates[name]);
      expect(verifyCertificate(chain.certificates[name], chain.root.publicKeyHex)).toEqual(
        chain.certificatePayloads[name],
      );
    }
    expect(verifyCertificate(chain.certificates.byOtherRoot, chain.root.publicKeyHex)).toBeNull();
    expect(verifyCertificate(chain.certificates.third, chain.third.publicKeyHex)).toBeNull();
  });

  it("signs a token and a marker with a rotated key byte for byte", () => {
    const claims = chain.claims as LicenseTokenClaims;
    expect(signLicenseToken(claims, { keyId: chain.third.keyId, privateKey: third })).toBe(chain.token);
    expect(signMarker(chain.markerPayload as OfflineMarkerPayload, third)).toBe(chain.marker);
  });

  it("signs the revocation and the revocation list byte for byte", () => {
    const signer = { keyId: chain.third.keyId, privateKey: third, certificate: chain.certificates.third };
    const payload = revocationVector.revocationPayload as Parameters<typeof signRevocation>[1];
    expect(signRevocation(signer, payload)).toBe(revocationVector.revocation);
    expect(signRevocationList(signer, revocationVector.listPayload)).toBe(revocationVector.list);
  });

  it("normalises typed license keys as the vectors say", () => {
    for (const { input, expected } of keyVectors.normalized)
      expect(normalizeLicenseKey(input)).toBe(expected);
  });

  it("signs the offline activation response byte for byte, and checks the request's and receipt's HMAC", () => {
    const { request, response, receipt, licenseKey, keyId } = offlineVector;
    const claims = response.claims as OfflineActivationClaims;
    expect(signOfflineResponse(claims, { keyId, privateKey })).toBe(response.text);
    expect(verifyOfflineResponse(response.text, offlineVector.publicKeyHex)).toEqual({
      valid: true,
      header: response.header,
      claims,
    });
    for (const [parsed, macHex] of [
      [parseOfflineRequest(request.text), request.macHex],
      [parseOfflineReceipt(receipt.text), receipt.macHex],
    ] as const) {
      if (!parsed.ok) throw new Error(parsed.reason);
      expect(Buffer.from(parsed.mac).toString("hex")).toBe(macHex);
      expect(offlineMacMatches(licenseKey, parsed.macInput, parsed.mac)).toBe(true);
      expect(offlineMacMatches("SVC-00000-00000-00000-00000-00000", parsed.macInput, parsed.mac)).toBe(false);
    }
  });
});
