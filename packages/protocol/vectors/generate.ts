/**
 * Writes the golden vectors in this folder. They are fixed inputs and their exact outputs, checked by the
 * protocol's own tests, the server's and the SDK's; regenerate only when a format changes on purpose
 * (`npx tsx packages/protocol/vectors/generate.ts`), and say so in the commit.
 */
import { createHash, createHmac } from "node:crypto";
import { writeFileSync } from "node:fs";
import * as ed from "@noble/ed25519";
import {
  componentHashInput,
  encodeBase64url,
  encodeOfflineReceiptBody,
  encodeOfflineRequestBody,
  encodeOfflineResponseSigningInput,
  formatMacBlock,
  formatOfflineResponse,
  OFFLINE_LABELS,
  offlineMacInput,
  type OfflineActivationClaims,
  type OfflineActivationRequest,
  type OfflineDeactivationReceipt,
  encodeMarkerBody,
  encodeTokenSigningInput,
  formatLicenseKey,
  formatSignatureHeader,
  signingStringV1,
  signingStringV2,
  toHex,
  utf8,
  type MarkerPayload,
  type TokenClaims,
} from "../src/index.ts";

const out = (name: string, value: unknown) =>
  writeFileSync(new URL(name, import.meta.url), `${JSON.stringify(value, null, 2)}\n`);

// A fixed seed: these are test keys, published on purpose.
const privateKeySeedHex = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const seed = Uint8Array.from(Buffer.from(privateKeySeedHex, "hex"));
const publicKeyHex = toHex(await ed.getPublicKeyAsync(seed));
const keyId = "7d0e6c3b-2f61-4a55-9c1e-2b8f0e6f3a11";

const claims: TokenClaims = {
  iss: "licensing-service",
  sub: "0c6f6a3e-5c5b-4e0f-8d7e-1f2a3b4c5d6e",
  lid: "3f1d2c4b-6a7e-4f80-9b1c-2d3e4f5a6b7c",
  lk: "SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D",
  tpl: "EDITOR",
  ver: 2,
  iat: 1_790_000_000,
  exp: 1_821_536_000,
  trial: false,
  hw: { mode: "firstActivation", fp: "9f2c…machine" },
  cfg: {
    features: ["export", "sync"],
    limits: { maxSeats: 3, "project.size": 10 },
    tier: "pro",
    note: "ünïcödé ✓",
  },
};
const tokenSigningInput = encodeTokenSigningInput(keyId, claims);
const tokenSignature = await ed.signAsync(utf8(tokenSigningInput), seed);
out("token.json", {
  description:
    "A license token: JWS compact, EdDSA. `token` must verify with `publicKeyHex` and decode to `header` and `claims`; signing `claims` with `keyId` and the seed must give `token` byte for byte.",
  privateKeySeedHex,
  publicKeyHex,
  keyId,
  header: { alg: "EdDSA", typ: "JWT", kid: keyId },
  claims,
  token: `${tokenSigningInput}.${encodeBase64url(tokenSignature)}`,
});

const payload: MarkerPayload = {
  lid: claims.lid,
  aid: "b5e0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
  fp: "9f2c…machine",
  iat: 1_790_086_400,
  exp: 1_790_691_200,
};
const markerBody = encodeMarkerBody(payload);
out("marker.json", {
  description:
    "An offline marker: base64url(payload).base64url(Ed25519 signature over the ASCII of the first segment), by the license's key.",
  publicKeyHex,
  payload,
  marker: `${markerBody}.${encodeBase64url(await ed.signAsync(utf8(markerBody), seed))}`,
});

const hmac = (key: string, message: string) => createHmac("sha256", key).update(message).digest("hex");
const requests = [
  {
    method: "POST",
    path: "/api/v1/client/heartbeat",
    body: `{"licenseKey":"${claims.lk}","activationId":"${payload.aid}"}`,
  },
  {
    method: "POST",
    path: "/api/v1/client/deactivate",
    body: `{"licenseKey":"${claims.lk}","activationId":"${payload.aid}"}`,
  },
  { method: "POST", path: "/api/v1/client/heartbeat", body: "" },
];
const timestamp = "1790086400";
out("signatures.json", {
  description:
    "Client request signatures (spec §5; v2 binds method, path and body). HMAC-SHA256 keyed with the UTF-8 of licenseKey; hex lower case.",
  cases: requests.map((r) => {
    const bodySha256Hex = createHash("sha256").update(r.body).digest("hex");
    const v1 = hmac(claims.lk, signingStringV1(timestamp));
    const v2 = hmac(claims.lk, signingStringV2({ timestamp, method: r.method, path: r.path, bodySha256Hex }));
    return {
      licenseKey: claims.lk,
      timestamp,
      ...r,
      bodySha256Hex,
      v2SigningString: signingStringV2({ timestamp, method: r.method, path: r.path, bodySha256Hex }),
      v1,
      v2,
      header: formatSignatureHeader({ v1, v2 }),
    };
  }),
});

out("license-keys.json", {
  description:
    "License keys from 16 random bytes (the first 125 bits, Crockford base32), and how typed keys normalise.",
  formatted: [
    "00000000000000000000000000000000",
    "ffffffffffffffffffffffffffffffff",
    "0123456789abcdeffedcba9876543210",
  ].map((randomHex) => ({
    randomHex,
    licenseKey: formatLicenseKey(Uint8Array.from(Buffer.from(randomHex, "hex"))),
  })),
  normalized: [
    ["  svc-5cym9-8qqmg-k0kav-9ms6k-3sd8d ", "SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D"],
    ["SVC-5CYM9-8QQMG-KOKAV-9MS6K-3SD8D", "SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D"],
    ["SVC-ILILI-00000-00000-00000-00000", "SVC-11111-00000-00000-00000-00000"],
    ["SVC-5CYM9-8QQMG-K0KAV-9MS6K", null],
    ["SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8U", null],
    ["XYZ-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D", null],
  ].map(([input, expected]) => ({ input, expected })),
});

const componentValues: Array<[string, string]> = [
  ["machine-id", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"],
  ["cpu-model", "intel(r) core(tm) i7-8650u cpu @ 1.90ghz"],
  ["memory-size", "16gib"],
  ["disk-id", "serial:s3z9nb0k123456x"],
  ["mac-address", "3c:22:fb:aa:bb:cc"],
  ["host-name", "build-box"],
  ["os-family", "debian"],
  ["cpu-model", "ünïcödé ✓"],
];
out("components.json", {
  description:
    "Fingerprint components: hash = lower-case hex SHA-256 of the UTF-8 of componentHashInput(licenseKey, kind, value), i.e. `licensing-component/1\\n<licenseKey>\\n<kind>\\n<value>`. The license key is the salt.",
  licenseKey: claims.lk,
  cases: componentValues.map(([kind, value]) => {
    const input = componentHashInput(claims.lk, kind, value);
    return { kind, value, input, hash: createHash("sha256").update(input).digest("hex") };
  }),
});

// Air-gapped activation (decision 0050): the machine's seven components, as the SDK hashes them.
const offlineRequest: OfflineActivationRequest = {
  lid: claims.lid,
  fp: "9f2c…machine",
  components: componentValues.slice(0, 7).map(([kind, value]) => ({
    kind,
    hash: createHash("sha256")
      .update(componentHashInput(claims.lk, kind, value))
      .digest("hex"),
  })),
  machineName: "build-box",
  nonce: "q0Xb3J7Zr1p9mWcYt2LhSA",
  iat: 1_790_000_100,
};
const macBlock = (label: (typeof OFFLINE_LABELS)["request" | "receipt"], segment: string) => {
  const macInput = offlineMacInput(label, segment);
  const mac = createHmac("sha256", claims.lk).update(macInput).digest();
  return { macInput, macHex: mac.toString("hex"), text: formatMacBlock(label, segment, mac) };
};
const requestBody = encodeOfflineRequestBody(offlineRequest);
const responseClaims: OfflineActivationClaims = {
  lid: claims.lid,
  aid: payload.aid,
  fp: offlineRequest.fp,
  nonce: offlineRequest.nonce,
  iat: 1_790_086_400,
  exp: 1_792_678_400,
};
const responseSigningInput = encodeOfflineResponseSigningInput(keyId, responseClaims);
const receipt: OfflineDeactivationReceipt = {
  lid: claims.lid,
  aid: payload.aid,
  nonce: offlineRequest.nonce,
  iat: 1_791_000_000,
};
const receiptBody = encodeOfflineReceiptBody(receipt);
out("offline.json", {
  description:
    "Air-gapped activation. request and receipt: armored base64url(JSON).base64url(HMAC-SHA256 keyed with the UTF-8 of licenseKey over macInput = label, LF, first segment); response: an armored JWS (EdDSA, typ license-activation+jwt) by the token's key. Bodies are wrapped at 64 characters; every block ends with a line break.",
  licenseKey: claims.lk,
  publicKeyHex,
  keyId,
  request: { payload: offlineRequest, body: requestBody, ...macBlock(OFFLINE_LABELS.request, requestBody) },
  response: {
    claims: responseClaims,
    header: { alg: "EdDSA", typ: "license-activation+jwt", kid: keyId },
    text: formatOfflineResponse(responseSigningInput, await ed.signAsync(utf8(responseSigningInput), seed)),
  },
  receipt: { payload: receipt, body: receiptBody, ...macBlock(OFFLINE_LABELS.receipt, receiptBody) },
});
