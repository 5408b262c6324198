import offlineVector from "@licensing/protocol/vectors/offline.json" with { type: "json" };
import { OFFLINE_LABELS, armor, unarmor } from "@licensing/protocol/offline";
import { describe, expect, it } from "vitest";
import { toPublicKey } from "../crypto/verify.ts";
import { checkCertificate, offlineReceiptText, offlineRequestText } from "./offline-certificate.ts";

const { request, response, receipt, licenseKey } = offlineVector;
const publicKey = toPublicKey(offlineVector.publicKeyHex);
const owner = {
  licenseId: response.claims.lid,
  fingerprint: response.claims.fp,
  nonce: response.claims.nonce,
};

describe("golden vectors, through the SDK's own code", () => {
  it("writes the vector's request and receipt byte for byte", async () => {
    expect(await offlineRequestText(licenseKey, request.payload)).toEqual({
      text: request.text,
      droppedComponents: [],
    });
    expect(await offlineReceiptText(licenseKey, receipt.payload)).toBe(receipt.text);
  });

  it("trusts the vector's response for its license, machine and request, and nothing else", async () => {
    expect(await checkCertificate(response.text, publicKey, owner)).toEqual({
      ok: true,
      certificate: { text: response.text.trim(), claims: response.claims },
    });
    const cases: Array<[{ licenseId?: string; fingerprint?: string; nonce?: string | null }, string]> = [
      [{ licenseId: "00000000-0000-4000-8000-000000000000" }, "other-license"],
      [{ fingerprint: "another machine" }, "other-machine"],
      [{ nonce: "another-request-nonce-0" }, "other-request"],
      [{ nonce: null }, "other-request"],
    ];
    for (const [change, problem] of cases) {
      expect(await checkCertificate(response.text, publicKey, { ...owner, ...change })).toEqual({
        ok: false,
        problem,
      });
    }
    const body = unarmor(OFFLINE_LABELS.response, response.text)!;
    const at = body.length - 10;
    const changed = armor(
      OFFLINE_LABELS.response,
      body.slice(0, at) + (body[at] === "A" ? "B" : "A") + body.slice(at + 1),
    );
    expect(await checkCertificate(changed, publicKey, owner)).toEqual({
      ok: false,
      problem: "signature-invalid",
    });
    const otherKey = toPublicKey("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c");
    expect((await checkCertificate(response.text, otherKey, owner)).ok).toBe(false);
    expect(await checkCertificate(request.text, publicKey, owner)).toEqual({
      ok: false,
      problem: "malformed",
    });
  });
});

describe("offlineRequestText", () => {
  it("fits one QR code: a long machine name is shortened, then the last components go", async () => {
    const long = { ...request.payload, fp: "f".repeat(64), machineName: "ü".repeat(200) };
    const named = await offlineRequestText(licenseKey, long);
    expect(named.text.length).toBeLessThanOrEqual(1200);
    expect(named.droppedComponents).toEqual([]);
    const components = Array.from({ length: 16 }, (_, i) => ({ kind: `kind-${i}`, hash: "ab".repeat(32) }));
    const many = await offlineRequestText(licenseKey, { ...long, components });
    expect(many.text.length).toBeLessThanOrEqual(1200);
    expect(many.droppedComponents.length).toBeGreaterThan(0);
    expect(many.droppedComponents).toEqual(
      components.slice(16 - many.droppedComponents.length).map((c) => c.kind),
    );
  });
});
