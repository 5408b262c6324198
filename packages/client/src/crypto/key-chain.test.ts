import chain from "@licensing/protocol/vectors/key-chain.json" with { type: "json" };
import leaseVector from "@licensing/protocol/vectors/lease-token.json" with { type: "json" };
import revocationVector from "@licensing/protocol/vectors/revocation.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { checkLicenseFile } from "../license/license-file.ts";
import { checkMarker } from "../license/marker-check.ts";
import { addCertificate, trustedKeys } from "./key-chain.ts";
import {
  verifyLeaseToken,
  verifyLicenseToken,
  verifyMarker,
  verifyRevocation,
  verifyRevocationList,
} from "./verify.ts";

// The golden vectors of the key chain (decision 0049), through the SDK's own verification: a program built
// with the root key alone.
const root = () => trustedKeys(chain.root.publicKeyHex);
const owner = {
  licenseId: chain.markerPayload.lid,
  activationId: chain.markerPayload.aid,
  fingerprint: chain.markerPayload.fp,
};

describe("a key the root certified", () => {
  it("verifies a token and a marker signed after two rotations, with only the root configured", async () => {
    const keys = root();
    expect(await verifyLicenseToken(chain.token, keys)).toEqual({ ok: false, reason: "signature-invalid" });
    expect(await addCertificate(keys, chain.certificates.third)).toBe(true);
    const token = await verifyLicenseToken(chain.token, keys);
    expect(token.ok && token.token.claims).toEqual(chain.claims);
    expect(await verifyMarker(chain.marker, keys)).toEqual({ ok: true, payload: chain.markerPayload });
    expect((await checkMarker(chain.marker, keys, owner)).ok).toBe(true);
  });

  it("verifies a lease token of a rotated key through its certificate, and the root's without one", async () => {
    const keys = root();
    expect(await verifyLeaseToken(leaseVector.chain.leaseToken, keys)).toBeNull();
    expect(await addCertificate(keys, leaseVector.chain.certificate)).toBe(true);
    expect(await verifyLeaseToken(leaseVector.chain.leaseToken, keys)).toEqual(leaseVector.chain.payload);
    expect(await verifyLeaseToken(leaseVector.leaseToken, keys)).toEqual(leaseVector.payload);
    // Never a marker, and a marker never a lease token.
    expect((await verifyMarker(leaseVector.leaseToken, keys)).ok).toBe(false);
    expect(await verifyLeaseToken(chain.marker, keys)).toBeNull();
  });

  it("comes in the license file's envelope", async () => {
    const file = (certificate?: string) =>
      JSON.stringify({ licenseKey: chain.claims.lk, token: chain.token, publicKey: "ignored", certificate });
    const keys = root();
    const checked = await checkLicenseFile(file(chain.certificates.third), keys);
    expect(checked.ok && checked.license.claims.rv).toBe("immediate");
    expect(keys.certified.has(chain.third.keyId)).toBe(true);
    expect(await checkLicenseFile(file(), root())).toEqual({ ok: false, problem: "signature-invalid" });
  });

  it("is refused when another root signed its certificate, or a changed one", async () => {
    const keys = root();
    expect(await addCertificate(keys, chain.certificates.byOtherRoot)).toBe(false);
    const flipped = chain.certificates.third.slice(0, -3) + "AAA";
    expect(await addCertificate(keys, flipped)).toBe(false);
    expect(await addCertificate(keys, chain.token)).toBe(false);
    expect(keys.certified.size).toBe(0);
    expect((await verifyLicenseToken(chain.token, keys)).ok).toBe(false);
    expect((await verifyMarker(chain.marker, keys)).ok).toBe(false);
  });

  it("a certified key that signed before its nbf is refused", async () => {
    const keys = root();
    await addCertificate(keys, chain.certificates.second);
    // The vector's markers of the second key are signed after its nbf; one a day earlier is not trusted.
    const early = {
      ...keys.certified.get(chain.second.keyId)!,
      nbf: chain.certificatePayloads.secondRetired.exp,
    };
    keys.certified.set(chain.second.keyId, early);
    expect((await verifyMarker(chain.markerBeforeRetirement, keys)).ok).toBe(false);
  });

  it("a list of configured keys trusts each: a vendor who pre-ships the third key needs no certificate", async () => {
    const keys = trustedKeys([chain.otherRoot.publicKeyHex, chain.third.publicKeyHex]);
    expect((await verifyLicenseToken(chain.token, keys)).ok).toBe(true);
    expect(() => trustedKeys([])).toThrow(TypeError);
    expect(() => trustedKeys([chain.root.publicKeyHex, "abc"])).toThrow(TypeError);
  });
});

describe("a retired key", () => {
  it("signs nothing from its certificate's exp on; what it signed before stays valid", async () => {
    const keys = root();
    await addCertificate(keys, chain.certificates.second);
    expect((await verifyMarker(chain.markerAfterRetirement, keys)).ok).toBe(true);
    await addCertificate(keys, chain.certificates.secondRetired);
    expect(await verifyMarker(chain.markerAfterRetirement, keys)).toEqual({
      ok: false,
      reason: "signature-invalid",
    });
    expect((await verifyMarker(chain.markerBeforeRetirement, keys)).ok).toBe(true);
  });

  it("stays retired when its older certificate comes again (a replayed answer)", async () => {
    const keys = root();
    await addCertificate(keys, chain.certificates.secondRetired);
    expect(await addCertificate(keys, chain.certificates.second)).toBe(true);
    expect(keys.certified.get(chain.second.keyId)?.exp).toBe(chain.certificatePayloads.secondRetired.exp);
    expect((await verifyMarker(chain.markerAfterRetirement, keys)).ok).toBe(false);
  });
});

describe("the revocation and the revocation list", () => {
  it("verify through the certificate in their header, with only the root configured", async () => {
    expect(await verifyRevocation(revocationVector.revocation, root())).toEqual(
      revocationVector.revocationPayload,
    );
    expect(await verifyRevocationList(revocationVector.list, root())).toEqual(revocationVector.listPayload);
  });

  it("are refused with another key, changed, or as each other", async () => {
    const other = trustedKeys(chain.otherRoot.publicKeyHex);
    expect(await verifyRevocation(revocationVector.revocation, other)).toBeNull();
    expect(await verifyRevocationList(revocationVector.list, other)).toBeNull();
    const [h, p, s] = revocationVector.revocation.split(".") as [string, string, string];
    const changed = `${h}.${p.slice(0, -2)}AA.${s}`;
    expect(await verifyRevocation(changed, root())).toBeNull();
    expect(await verifyRevocation(revocationVector.list, root())).toBeNull();
    expect(await verifyRevocationList(revocationVector.revocation, root())).toBeNull();
    expect(await verifyRevocation("not a revocation", root())).toBeNull();
  });
});
