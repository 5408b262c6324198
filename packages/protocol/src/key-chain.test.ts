import * as ed from "@noble/ed25519";
import { describe, expect, it } from "vitest";
import chain from "../vectors/key-chain.json" with { type: "json" };
import revocationVector from "../vectors/revocation.json" with { type: "json" };
import {
  decodeCertificate,
  decodeDocument,
  decodeMarker,
  decodeRevocation,
  decodeRevocationList,
  decodeToken,
  DOCUMENT_TYPES,
  encodeBase64url,
  encodeCertificateSigningInput,
  encodeMarkerBody,
  encodeRevocationListSigningInput,
  encodeRevocationSigningInput,
  encodeTokenSigningInput,
  fromHex,
  parseMarker,
  parseToken,
  utf8,
  type MarkerPayload,
  type TokenClaims,
} from "./index.ts";

const verifies = (signature: Uint8Array, input: string, publicKeyHex: string) =>
  ed.verifyAsync(signature, utf8(input), fromHex(publicKeyHex)!, { zip215: false });

describe("golden vectors: the key chain", () => {
  it("certificates: encode to the vectors' signing inputs and verify with the root, not another key", async () => {
    for (const name of ["second", "third", "secondRetired"] as const) {
      const text = chain.certificates[name];
      const input = encodeCertificateSigningInput(chain.root.keyId, chain.certificatePayloads[name]);
      expect(text.startsWith(`${input}.`)).toBe(true);
      const decoded = decodeCertificate(text)!;
      expect(decoded.header).toEqual({
        alg: "EdDSA",
        typ: DOCUMENT_TYPES.certificate,
        kid: chain.root.keyId,
      });
      expect(decoded.payload).toEqual(chain.certificatePayloads[name]);
      expect(await verifies(decoded.signature, decoded.signingInput, chain.root.publicKeyHex)).toBe(true);
      expect(await verifies(decoded.signature, decoded.signingInput, chain.otherRoot.publicKeyHex)).toBe(
        false,
      );
    }
    const foreign = decodeCertificate(chain.certificates.byOtherRoot)!;
    expect(await verifies(foreign.signature, foreign.signingInput, chain.root.publicKeyHex)).toBe(false);
  });

  it("token and marker of the third key: encoded as the vectors, `rv` after `fm`, `kid` last in the marker", async () => {
    const tokenInput = encodeTokenSigningInput(chain.third.keyId, chain.claims as TokenClaims);
    expect(chain.token.startsWith(`${tokenInput}.`)).toBe(true);
    const token = parseToken(chain.token);
    if (!token.ok) throw new Error(token.reason);
    expect(token.token.claims).toEqual(chain.claims);
    expect(Object.keys(token.token.claims).slice(-3)).toEqual(["fm", "rv", "cfg"]);
    expect(decodeToken(chain.token)).toEqual(token);
    expect(await verifies(token.token.signature, token.token.signingInput, chain.third.publicKeyHex)).toBe(
      true,
    );

    expect(chain.marker.startsWith(`${encodeMarkerBody(chain.markerPayload as MarkerPayload)}.`)).toBe(true);
    const marker = parseMarker(chain.marker);
    if (!marker.ok) throw new Error(marker.reason);
    expect(marker.marker.payload).toEqual(chain.markerPayload);
    expect(Object.keys(marker.marker.payload).at(-1)).toBe("kid");
    expect(decodeMarker(chain.marker)).toEqual(marker);
    expect(
      await verifies(marker.marker.signature, marker.marker.signingInput, chain.third.publicKeyHex),
    ).toBe(true);
  });

  it("the markers of the retired second key are signed at and just before its certificate's exp", () => {
    const end = chain.certificatePayloads.secondRetired.exp;
    const at = (text: string) =>
      (decodeMarker(text) as { marker: { payload: MarkerPayload } }).marker.payload;
    expect(at(chain.markerAfterRetirement)).toMatchObject({ kid: chain.second.keyId, iat: end });
    expect(at(chain.markerBeforeRetirement)).toMatchObject({ kid: chain.second.keyId, iat: end - 1 });
  });
});

describe("golden vectors: revocation and revocation list", () => {
  it("encode to the vectors' signing inputs, carry the certificate in `crt`, and verify with the third key", async () => {
    const { signer } = revocationVector;
    expect(signer.crt).toBe(chain.certificates.third);
    const revocation = decodeRevocation(revocationVector.revocation)!;
    const input = encodeRevocationSigningInput(signer, revocationVector.revocationPayload as never);
    expect(revocationVector.revocation.startsWith(`${input}.`)).toBe(true);
    expect(revocation.header).toEqual({ alg: "EdDSA", typ: "license-revocation", ...signer });
    expect(revocation.payload).toEqual(revocationVector.revocationPayload);
    expect(await verifies(revocation.signature, revocation.signingInput, chain.third.publicKeyHex)).toBe(
      true,
    );

    const list = decodeRevocationList(revocationVector.list)!;
    const listInput = encodeRevocationListSigningInput(signer, revocationVector.listPayload);
    expect(revocationVector.list.startsWith(`${listInput}.`)).toBe(true);
    expect(list.header.typ).toBe("revocation-list");
    expect(list.payload).toEqual(revocationVector.listPayload);
    expect(await verifies(list.signature, list.signingInput, chain.third.publicKeyHex)).toBe(true);
  });
});

describe("documents of one type never pass for another", () => {
  const texts = {
    certificate: chain.certificates.third,
    revocation: revocationVector.revocation,
    list: revocationVector.list,
    token: chain.token,
  };
  it("each decoder takes its own type only", () => {
    const decoders = {
      certificate: decodeCertificate,
      revocation: decodeRevocation,
      list: decodeRevocationList,
      token: (text: string) => (decodeToken(text).ok ? text : null),
    };
    for (const [name, decode] of Object.entries(decoders)) {
      for (const [other, text] of Object.entries(texts)) {
        expect(decode(text) !== null, `${name} decoding a ${other}`).toBe(name === other);
      }
    }
  });

  it("refuses a changed header, a crit member, missing or odd members", () => {
    const [, payload, signature] = chain.certificates.third.split(".") as [string, string, string];
    const segment = (value: unknown) => encodeBase64url(JSON.stringify(value));
    const header = { alg: "EdDSA", typ: DOCUMENT_TYPES.certificate, kid: chain.root.keyId };
    const withHeader = (h: unknown) => `${segment(h)}.${payload}.${signature}`;
    expect(decodeCertificate(withHeader(header))).not.toBeNull();
    for (const bad of [
      { ...header, alg: "none" },
      { ...header, kid: "root" },
      { ...header, crit: ["exp"] },
      { ...header, crt: 5 },
      { ...header, typ: "JWT" },
    ]) {
      expect(decodeCertificate(withHeader(bad)), JSON.stringify(bad)).toBeNull();
    }
    const withPayload = (p: unknown) => `${segment(header)}.${segment(p)}.${signature}`;
    const good = chain.certificatePayloads.third;
    for (const bad of [
      { ...good, pub: "abc" },
      { ...good, kid: undefined },
      { ...good, exp: -1 },
      { ...good, nbf: 1.5 },
    ]) {
      expect(decodeCertificate(withPayload(bad)), JSON.stringify(bad)).toBeNull();
    }
    expect(decodeDocument("a.b", DOCUMENT_TYPES.certificate)).toBeNull();
    const revocation = revocationVector.revocationPayload;
    const revocationHeader = { ...header, typ: DOCUMENT_TYPES.revocation };
    const asRevocation = (p: unknown) => `${segment(revocationHeader)}.${segment(p)}.${signature}`;
    expect(decodeRevocation(asRevocation(revocation))).not.toBeNull();
    expect(decodeRevocation(asRevocation({ ...revocation, status: "Suspended" }))).toBeNull();
    const listHeader = { ...header, typ: DOCUMENT_TYPES.revocationList };
    const asList = (p: unknown) => `${segment(listHeader)}.${segment(p)}.${signature}`;
    const list = revocationVector.listPayload;
    expect(decodeRevocationList(asList(list))).not.toBeNull();
    expect(decodeRevocationList(asList({ ...list, revoked: [{ lid: "x", revokedAt: 1 }] }))).toBeNull();
    expect(decodeRevocationList(asList({ ...list, next: 3 }))).toBeNull();
  });
});
