import markerVector from "@licensing/protocol/vectors/marker.json" with { type: "json" };
import signatureVectors from "@licensing/protocol/vectors/signatures.json" with { type: "json" };
import tokenVector from "@licensing/protocol/vectors/token.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { requestSigner } from "../http/signing.ts";
import { checkLicenseFile } from "../license/license-file.ts";
import { checkMarker } from "../license/marker-check.ts";
import { toPublicKey, verifyLicenseToken, verifyMarker } from "./verify.ts";

const publicKey = toPublicKey(tokenVector.publicKeyHex);
const flip = (text: string, at: number) =>
  text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);

describe("golden vectors, through the SDK's own verification", () => {
  it("token: verifies with the vector's key and yields its header and claims", async () => {
    const verified = await verifyLicenseToken(tokenVector.token, publicKey);
    expect(verified.ok && verified.token.claims).toEqual(tokenVector.claims);
    expect(verified.ok && verified.token.header).toEqual(tokenVector.header);
  });

  it("token: a changed character anywhere, or another key, is a bad signature", async () => {
    const token = tokenVector.token;
    for (const at of [5, token.indexOf(".") + 10, token.length - 5]) {
      expect(await verifyLicenseToken(flip(token, at), publicKey)).toEqual({
        ok: false,
        reason: "signature-invalid",
      });
    }
    const otherKey = toPublicKey("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c");
    expect((await verifyLicenseToken(token, otherKey)).ok).toBe(false);
    expect((await verifyLicenseToken("not.a.token", publicKey)).ok).toBe(false);
  });

  it("license file: an envelope or a bare token; the envelope's key must be the token's", async () => {
    const envelope = { licenseKey: tokenVector.claims.lk, token: tokenVector.token, publicKey: "ignored" };
    expect((await checkLicenseFile(JSON.stringify(envelope), publicKey)).ok).toBe(true);
    expect((await checkLicenseFile(`\uFEFF${tokenVector.token}\n`, publicKey)).ok).toBe(true);
    const edited = { ...envelope, licenseKey: "SVC-00000-00000-00000-00000-00000" };
    expect(await checkLicenseFile(JSON.stringify(edited), publicKey)).toEqual({
      ok: false,
      problem: "license-file-unreadable",
    });
    expect(await checkLicenseFile(null, publicKey)).toEqual({ ok: false, problem: "license-file-missing" });
    expect(await checkLicenseFile("{nonsense", publicKey)).toEqual({
      ok: false,
      problem: "license-file-unreadable",
    });
  });

  it("marker: verifies, belongs to its license, activation and machine, and nothing else", async () => {
    expect(await verifyMarker(markerVector.marker, publicKey)).toEqual({
      ok: true,
      payload: markerVector.payload,
    });
    const owner = {
      licenseId: markerVector.payload.lid,
      activationId: markerVector.payload.aid,
      fingerprint: markerVector.payload.fp,
    };
    expect((await checkMarker(markerVector.marker, publicKey, owner)).ok).toBe(true);
    expect((await checkMarker(markerVector.marker, publicKey, { ...owner, activationId: null })).ok).toBe(
      true,
    );
    const problem = async (text: string, o = owner) => {
      const checked = await checkMarker(text, publicKey, o);
      return checked.ok ? null : checked.problem;
    };
    expect(await problem(flip(markerVector.marker, 12))).toBe("signature-invalid");
    expect(await problem("garbage")).toBe("malformed");
    expect(await problem(markerVector.marker, { ...owner, fingerprint: "another machine" })).toBe(
      "other-machine",
    );
    expect(await problem(markerVector.marker, { ...owner, licenseId: tokenVector.claims.sub })).toBe(
      "other-license",
    );
    expect(await problem(markerVector.marker, { ...owner, activationId: tokenVector.keyId })).toBe(
      "other-activation",
    );
  });

  it.each(signatureVectors.cases)("request signature: v1 and v2 of $method $path", async (c) => {
    const sign = requestSigner(c.licenseKey);
    const headers = await sign({
      timestampSeconds: Number(c.timestamp),
      method: c.method,
      path: c.path,
      body: c.body,
    });
    expect(headers).toEqual({ "x-service-timestamp": c.timestamp, "x-service-signature": c.header });
  });
});

describe("toPublicKey", () => {
  it("takes 32 bytes or 64 hex characters and refuses anything else", () => {
    expect(toPublicKey(tokenVector.publicKeyHex.toUpperCase())).toEqual(publicKey);
    expect(toPublicKey(publicKey)).toEqual(publicKey);
    for (const bad of ["abc", tokenVector.publicKeyHex.slice(2), new Uint8Array(31)]) {
      expect(() => toPublicKey(bad)).toThrow(TypeError);
    }
  });
});
