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
  encodeMarkerBody,
  encodeTokenSigningInput,
  formatLicenseKey,
  formatSignatureHeader,
  signingStringV1,
  signingStringV2,
  toHex,
  utf8,
  type LeaseTokenPayload,
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
out("lease-token.json", {
  description:
    "A lease token (leaseToken): signed like the offline marker, base64url(payload).base64url(Ed25519 signature over the ASCII of the first segment), by the license's key; `typ` is \"lease\", `exp` the lease's expiresAt.",
  publicKeyHex,
  payload: lease,
  leaseToken: `${leaseBody}.${encodeBase64url(await ed.signAsync(utf8(leaseBody), seed))}`,
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
