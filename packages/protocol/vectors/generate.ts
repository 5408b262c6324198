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
  encodeLeaseTokenBody,
  encodeCertificateSigningInput,
  encodeMarkerBody,
  encodeRevocationListSigningInput,
  encodeRevocationSigningInput,
  encodeTokenSigningInput,
  formatLicenseKey,
  formatSignatureHeader,
  signingStringV1,
  signingStringV2,
  toHex,
  utf8,
  type LeaseTokenPayload,
  type CertificatePayload,
  type MarkerPayload,
  type TokenClaims,
} from "../src/index.ts";
import {
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
} from "../src/offline.ts";

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

// A floating license (decision 0048): the seat model, lease length and borrowing days, with the
// fingerprint matching claim, in the order the server writes them.
const floatingClaims: TokenClaims = {
  iss: claims.iss,
  sub: claims.sub,
  lid: "6a2f9c1e-4b7d-4e3a-8f5c-0d1e2f3a4b5c",
  lk: formatLicenseKey(Uint8Array.from(Buffer.from("5c1e2d3f4a5b6c7d8e9fa0b1c2d3e4f5", "hex"))),
  tpl: claims.tpl,
  ver: 1,
  iat: claims.iat,
  exp: claims.exp,
  trial: false,
  hw: { mode: "none", fp: null },
  fm: "fuzzy",
  sm: "floating",
  ls: 900,
  mb: 7,
  cfg: { features: ["export"], limits: { maxSeats: 10, maxMachines: 200 } },
};
const floatingSigningInput = encodeTokenSigningInput(keyId, floatingClaims);
out("floating-token.json", {
  description:
    "The token of a floating license: `fm`, `sm`, `ls` and `mb` after `hw`. Same key as token.json; signing `claims` with `keyId` and the seed must give `token` byte for byte.",
  publicKeyHex,
  keyId,
  header: { alg: "EdDSA", typ: "JWT", kid: keyId },
  claims: floatingClaims,
  token: `${floatingSigningInput}.${encodeBase64url(await ed.signAsync(utf8(floatingSigningInput), seed))}`,
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

const lease: LeaseTokenPayload = {
  typ: "lease",
  lsid: "d4c3b2a1-9f8e-4d7c-8b6a-5f4e3d2c1b0a",
  lid: floatingClaims.lid,
  aid: "e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b",
  fp: "5e1f…workstation",
  iat: 1_790_086_400,
  exp: 1_790_087_300,
};
const leaseBody = encodeLeaseTokenBody(lease);

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
  {
    method: "POST",
    path: "/api/v1/client/leases/renew",
    body: `{"licenseKey":"${claims.lk}","leaseId":"${lease.lsid}"}`,
  },
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

// The key chain (decision 0049): the token's key above is the template's root; two rotations made two more.
const signed = async (signingInput: string, keySeed: Uint8Array) =>
  `${signingInput}.${encodeBase64url(await ed.signAsync(utf8(signingInput), keySeed))}`;
const keyOf = async (id: string, seedHex: string) => {
  const keySeed = Uint8Array.from(Buffer.from(seedHex, "hex"));
  return { id, seedHex, seed: keySeed, publicKeyHex: toHex(await ed.getPublicKeyAsync(keySeed)) };
};
const second = await keyOf(
  "8e1f7d4c-3a72-4b66-8d2f-3c9a1f7e4b22",
  "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
);
const third = await keyOf(
  "9f2a8e5d-4b83-4c77-9e3a-4dab2a8f5c33",
  "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
);
const otherRoot = await keyOf(
  "a03b9f6e-5c94-4d88-8f4b-5ebc3b9a6d44",
  "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
);
const certificate = (root: { id: string; seed: Uint8Array }, payload: CertificatePayload) =>
  signed(encodeCertificateSigningInput(root.id, payload), root.seed);
const root = { id: keyId, seed };
const secondCertificate = {
  kid: second.id,
  pub: second.publicKeyHex,
  iat: 1_790_500_000,
  nbf: 1_790_500_000,
};
const thirdCertificate = { kid: third.id, pub: third.publicKeyHex, iat: 1_791_000_000, nbf: 1_791_000_000 };
const retiredAt = 1_791_500_000;
const chainClaims: TokenClaims = { ...claims, iat: 1_791_086_400, fm: "strict", rv: "immediate" };
const chainTokenInput = encodeTokenSigningInput(third.id, chainClaims);
const chainMarker: MarkerPayload = { ...payload, iat: 1_791_172_800, exp: 1_791_777_600, kid: third.id };
const afterRetirement: MarkerPayload = {
  ...payload,
  iat: retiredAt,
  exp: retiredAt + 7 * 86_400,
  kid: second.id,
};
const beforeRetirement: MarkerPayload = {
  ...payload,
  iat: retiredAt - 1,
  exp: retiredAt - 1 + 7 * 86_400,
  kid: second.id,
};
out("key-chain.json", {
  description:
    "The key chain: `root` is token.json's key (what programs are built with); `second` and `third` came from two rotations and are certified by the root (a JWS, typ signing-key-certificate). `token` and `marker` are signed by `third` and verify through `certificates.third` with only the root's public key; `secondRetired` ends `second` at its `exp`, so `markerAfterRetirement` (signed at `exp`) is refused and `markerBeforeRetirement` is not; `byOtherRoot` is signed by a key that is not the root and is refused.",
  root: { keyId, privateKeySeedHex, publicKeyHex },
  second: { keyId: second.id, privateKeySeedHex: second.seedHex, publicKeyHex: second.publicKeyHex },
  third: { keyId: third.id, privateKeySeedHex: third.seedHex, publicKeyHex: third.publicKeyHex },
  otherRoot: {
    keyId: otherRoot.id,
    privateKeySeedHex: otherRoot.seedHex,
    publicKeyHex: otherRoot.publicKeyHex,
  },
  certificatePayloads: {
    second: secondCertificate,
    third: thirdCertificate,
    secondRetired: { ...secondCertificate, iat: retiredAt, exp: retiredAt },
  },
  certificates: {
    second: await certificate(root, secondCertificate),
    third: await certificate(root, thirdCertificate),
    secondRetired: await certificate(root, { ...secondCertificate, iat: retiredAt, exp: retiredAt }),
    byOtherRoot: await certificate(otherRoot, thirdCertificate),
  },
  claims: chainClaims,
  token: await signed(chainTokenInput, third.seed),
  markerPayload: chainMarker,
  marker: await (async () => {
    const body = encodeMarkerBody(chainMarker);
    return `${body}.${encodeBase64url(await ed.signAsync(utf8(body), third.seed))}`;
  })(),
  markerAfterRetirement: await (async () => {
    const body = encodeMarkerBody(afterRetirement);
    return `${body}.${encodeBase64url(await ed.signAsync(utf8(body), second.seed))}`;
  })(),
  markerBeforeRetirement: await (async () => {
    const body = encodeMarkerBody(beforeRetirement);
    return `${body}.${encodeBase64url(await ed.signAsync(utf8(body), second.seed))}`;
  })(),
});

// A lease token goes through the key chain as a marker does: signed by `third`, it names it (`kid`).
const chainLease: LeaseTokenPayload = { ...lease, iat: 1_791_172_800, exp: 1_791_173_700, kid: third.id };
const chainLeaseBody = encodeLeaseTokenBody(chainLease);
out("lease-token.json", {
  description:
    "A lease token (leaseToken): signed like the offline marker, base64url(payload).base64url(Ed25519 signature over the ASCII of the first segment), by the key that signs the license's markers; `typ` is \"lease\", `exp` the lease's expiresAt. `chain`: signed by key-chain.json's `third` key, named by `kid` (after `exp`); it verifies through `certificate` with only the root's public key.",
  publicKeyHex,
  payload: lease,
  leaseToken: `${leaseBody}.${encodeBase64url(await ed.signAsync(utf8(leaseBody), seed))}`,
  chain: {
    payload: chainLease,
    certificate: await certificate(root, thirdCertificate),
    leaseToken: `${chainLeaseBody}.${encodeBase64url(await ed.signAsync(utf8(chainLeaseBody), third.seed))}`,
  },
});

const thirdSigner = { kid: third.id, crt: await certificate(root, thirdCertificate) };
const revocation = {
  lid: claims.lid,
  status: "Revoked" as const,
  revokedAt: 1_791_200_000,
  iat: 1_791_200_060,
};
const revocationList = {
  tid: "0f8fad5b-d9cb-469f-a165-70867728950e",
  tpl: claims.tpl,
  since: 1_791_000_000,
  iat: 1_791_300_000,
  revoked: [
    { lid: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", revokedAt: 1_791_100_000 },
    { lid: claims.lid, revokedAt: 1_791_200_000 },
  ],
  next: null,
};
out("revocation.json", {
  description:
    "A license's revocation (the `revocation` of a 403 license.revoked) and a template's revocation list (`list` of GET /client/revocations), both JWS signed by key-chain.json's `third` key, whose certificate rides in the header's `crt`: they verify with only the root's public key.",
  rootPublicKeyHex: publicKeyHex,
  signer: thirdSigner,
  revocationPayload: revocation,
  revocation: await signed(encodeRevocationSigningInput(thirdSigner, revocation), third.seed),
  listPayload: revocationList,
  list: await signed(encodeRevocationListSigningInput(thirdSigner, revocationList), third.seed),
});
