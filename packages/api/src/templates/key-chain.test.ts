import { verifyCertificate, verifyLeaseToken, verifyLicenseToken, verifyMarker } from "@licensing/core";
import { tables } from "@licensing/db";
import { decodeCertificate, parseMarker } from "@licensing/protocol";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";
import { createTemplate } from "../testing/licensing.ts";

/**
 * Issue 24 §3 (decision 0049): a template's first key is its root; keys rotated in later are certified by
 * it, and the license file and every marker carry the certificate a program needs to verify them with the
 * root alone. Retiring a key ends its certificate, and the key signs nothing afterwards.
 */
const suite = useClientApi();
const SECOND = 1000;
const DAY = 86_400 * SECOND;
const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

async function keyedTemplate() {
  const template = await createTemplate(suite.operator, { defaultOfflineDays: 7 });
  const [root] = (await suite.operator.api.templates.signingKeys.list({ params: { id: template.id } })).body;
  return { template, root: root! };
}
const rotate = async (templateId: string) => {
  const res = await suite.operator.api.templates.signingKeys.rotate({ params: { id: templateId } });
  expect(res.status).toBe(200);
  return res.body;
};
const retire = async (templateId: string, keyId: string) => {
  const res = await suite.operator.api.templates.signingKeys.retire({ params: { id: templateId, keyId } });
  expect(res.status, res.text).toBe(204);
};
const issue = (templateId: string) =>
  suite.operator.api.licenses.issue({ body: { companyId: suite.target.companyId, templateId } });
const download = async (licenseId: string) =>
  (await suite.operator.api.licenses.file({ params: { id: licenseId } })).body;
const activate = (licenseKey: string, hwFingerprint = "fp") =>
  suite.app.client().then((c) => c.api.client.activate({ body: { licenseKey, hwFingerprint } }));
const storedKey = async (keyId: string) =>
  (await suite.app.deps.db.select().from(tables.signingKeys).where(eq(tables.signingKeys.id, keyId)))[0]!;
const markerOf = (text: string) => {
  const parsed = parseMarker(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.marker.payload;
};

describe("the root key", () => {
  it("is the template's first key: its licenses and markers need no certificate, and its markers name no key", async () => {
    const { template, root } = await keyedTemplate();
    expect((await storedKey(root.id)).isRoot).toBe(true);
    const issued = await issue(template.id);
    expect(issued.body).not.toHaveProperty("certificate");
    expect(await download(issued.body.id)).not.toHaveProperty("certificate");
    const activated = await activate(issued.body.licenseKey);
    expect(activated.body).not.toHaveProperty("certificate");
    expect(markerOf(activated.body.heartbeatToken)).not.toHaveProperty("kid");
  });
});

describe("a rotated key", () => {
  it("is certified by the root: the license file and the markers carry the certificate, the marker its kid", async () => {
    const { template, root } = await keyedTemplate();
    suite.app.clock.advance(DAY);
    const second = await rotate(template.id);
    const stored = await storedKey(second.id);
    expect(stored).toMatchObject({ isRoot: false, certificate: expect.any(String) });
    expect(verifyCertificate(stored.certificate!, root.publicKeyHex)).toEqual({
      kid: second.id,
      pub: second.publicKeyHex,
      iat: seconds(suite.app.clock.now()),
      nbf: seconds(suite.app.clock.now()),
    });
    expect(verifyCertificate(stored.certificate!, second.publicKeyHex)).toBeNull();

    const issued = await issue(template.id);
    expect(issued.body).toMatchObject({ publicKey: second.publicKeyHex, certificate: stored.certificate });
    expect(await download(issued.body.id)).toEqual({
      licenseKey: issued.body.licenseKey,
      token: issued.body.token,
      publicKey: second.publicKeyHex,
      certificate: stored.certificate,
    });
    const token = verifyLicenseToken(issued.body.token, second.publicKeyHex);
    expect(token.valid && token.header.kid).toBe(second.id);

    const activated = await activate(issued.body.licenseKey);
    expect(activated.body.certificate).toBe(stored.certificate);
    expect(activated.body).not.toHaveProperty("licenseCertificate");
    expect(markerOf(activated.body.heartbeatToken).kid).toBe(second.id);
    expect(verifyMarker(activated.body.heartbeatToken, second.publicKeyHex).valid).toBe(true);
    const beat = await suite.signed(await suite.app.client(), "heartbeat", {
      licenseKey: issued.body.licenseKey,
      activationId: activated.body.activationId,
    });
    expect(beat.body).toEqual({ heartbeatToken: expect.any(String), certificate: stored.certificate });
  });

  it("after two rotations, each key's certificate is the root's, and licenses of the older keys keep theirs", async () => {
    const { template, root } = await keyedTemplate();
    const second = await rotate(template.id);
    const early = await issue(template.id);
    const third = await rotate(template.id);
    const late = await issue(template.id);
    const listed = (await suite.operator.api.templates.signingKeys.list({ params: { id: template.id } }))
      .body;
    // The panel's list says which key is the root, the one programs embed.
    expect(listed.map((k) => [k.id, k.isRoot]).sort()).toEqual(
      [
        [root.id, true],
        [second.id, false],
        [third.id, false],
      ].sort(),
    );
    expect(second.isRoot).toBe(false);
    const certificates = [await storedKey(second.id), await storedKey(third.id)].map((k) => k.certificate!);
    expect(certificates.map((c) => verifyCertificate(c, root.publicKeyHex)?.kid)).toEqual([
      second.id,
      third.id,
    ]);
    expect((await download(early.body.id)).certificate).toBe(certificates[0]);
    expect((await download(late.body.id)).certificate).toBe(certificates[1]);
    // The Inactive second key still signs its own licenses' markers.
    const activated = await activate(early.body.licenseKey);
    expect(markerOf(activated.body.heartbeatToken).kid).toBe(second.id);
    expect(verifyMarker(activated.body.heartbeatToken, second.publicKeyHex).valid).toBe(true);
  });
});

describe("retiring a key", () => {
  it("ends its certificate, and its licenses' markers are signed by the Active key, with both certificates", async () => {
    const { template, root } = await keyedTemplate();
    const second = await rotate(template.id);
    const issued = await issue(template.id);
    const activated = await activate(issued.body.licenseKey);
    const third = await rotate(template.id);
    suite.app.clock.advance(DAY);
    await retire(template.id, second.id);
    const retiredAt = seconds(suite.app.clock.now());
    const ends = Math.ceil(suite.app.clock.now().getTime() / 1000);

    const ended = (await storedKey(second.id)).certificate!;
    expect(verifyCertificate(ended, root.publicKeyHex)).toEqual({
      kid: second.id,
      pub: second.publicKeyHex,
      iat: retiredAt,
      nbf: seconds(new Date(second.notBefore)),
      exp: ends,
    });
    // The license file carries the ended certificate: the token was signed before it ended.
    const file = await download(issued.body.id);
    expect(file.certificate).toBe(ended);
    expect(verifyLicenseToken(file.token, second.publicKeyHex).valid).toBe(true);

    const beat = await suite.signed(await suite.app.client(), "heartbeat", {
      licenseKey: issued.body.licenseKey,
      activationId: activated.body.activationId,
    });
    expect(beat.status).toBe(200);
    expect(beat.body).toEqual({
      heartbeatToken: expect.any(String),
      certificate: (await storedKey(third.id)).certificate,
      licenseCertificate: ended,
    });
    // The retired key signs no marker any more (it did before issue 24).
    expect(markerOf(beat.body.heartbeatToken).kid).toBe(third.id);
    expect(verifyMarker(beat.body.heartbeatToken, second.publicKeyHex).valid).toBe(false);
    expect(verifyMarker(beat.body.heartbeatToken, third.publicKeyHex).valid).toBe(true);

    const again = await activate(issued.body.licenseKey, "fp-other");
    expect(again.body).toMatchObject({ certificate: beat.body.certificate, licenseCertificate: ended });
    expect(markerOf(again.body.heartbeatToken).kid).toBe(third.id);
  });

  it("ends its signing of lease tokens too: a renewal's token comes from the Active key, with both certificates", async () => {
    const { template } = await keyedTemplate();
    await suite.operator.api.templates.update({
      params: { id: template.id },
      body: { seatModel: "floating" },
    });
    const second = await rotate(template.id);
    const issued = await issue(template.id);
    expect(issued.status, issued.text).toBe(201);
    const client = await suite.app.client();
    const activated = await activate(issued.body.licenseKey);
    const lease = { licenseKey: issued.body.licenseKey, activationId: activated.body.activationId };
    const acquired = await suite.signed(client, "acquireLease", lease);
    expect(acquired.status, acquired.text).toBe(201);
    expect(verifyLeaseToken(acquired.body.leaseToken, second.publicKeyHex).valid).toBe(true);

    const third = await rotate(template.id);
    await retire(template.id, second.id);
    // A live lease: the batched renewal, which reads the key's facts in its own statement.
    const renewed = await suite.signed(client, "renewLease", {
      licenseKey: issued.body.licenseKey,
      leaseId: acquired.body.leaseId,
    });
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.body).toMatchObject({
      certificate: (await storedKey(third.id)).certificate,
      licenseCertificate: (await storedKey(second.id)).certificate,
    });
    const verified = verifyLeaseToken(renewed.body.leaseToken, third.publicKeyHex);
    expect(verified.valid && verified.payload.kid).toBe(third.id);
    expect(verifyLeaseToken(renewed.body.leaseToken, second.publicKeyHex).valid).toBe(false);
  });

  it("of the root: its licenses' markers come from the Active key, and the root still certifies new keys", async () => {
    const { template, root } = await keyedTemplate();
    const issued = await issue(template.id);
    const activated = await activate(issued.body.licenseKey);
    const second = await rotate(template.id);
    await retire(template.id, root.id);
    expect(await storedKey(root.id)).toMatchObject({ status: "Retired", isRoot: true, certificate: null });
    expect(await download(issued.body.id)).not.toHaveProperty("certificate");

    const beat = await suite.signed(await suite.app.client(), "heartbeat", {
      licenseKey: issued.body.licenseKey,
      activationId: activated.body.activationId,
    });
    expect(beat.body).toEqual({
      heartbeatToken: expect.any(String),
      certificate: (await storedKey(second.id)).certificate,
    });
    expect(verifyMarker(beat.body.heartbeatToken, root.publicKeyHex).valid).toBe(false);
    const third = await rotate(template.id);
    expect(verifyCertificate((await storedKey(third.id)).certificate!, root.publicKeyHex)?.kid).toBe(
      third.id,
    );
  });
});

describe("a key rotated in before certificates existed", () => {
  it("is certified when first needed, once, with the same bytes as at rotation", async () => {
    const { template, root } = await keyedTemplate();
    const second = await rotate(template.id);
    const issued = await issue(template.id);
    const original = (await storedKey(second.id)).certificate!;
    await suite.app.deps.db
      .update(tables.signingKeys)
      .set({ certificate: null })
      .where(eq(tables.signingKeys.id, second.id));
    expect((await download(issued.body.id)).certificate).toBe(original);
    expect((await storedKey(second.id)).certificate).toBe(original);
    expect(decodeCertificate(original)?.header.kid).toBe(root.id);
  });

  it("and retired before: its certificate ends at its retirement", async () => {
    const { template, root } = await keyedTemplate();
    const second = await rotate(template.id);
    const issued = await issue(template.id);
    await rotate(template.id);
    await retire(template.id, second.id);
    const { retiredAt } = await storedKey(second.id);
    await suite.app.deps.db
      .update(tables.signingKeys)
      .set({ certificate: null })
      .where(eq(tables.signingKeys.id, second.id));
    const file = await download(issued.body.id);
    expect(verifyCertificate(file.certificate!, root.publicKeyHex)?.exp).toBe(
      Math.ceil(retiredAt!.getTime() / 1000),
    );
  });
});
