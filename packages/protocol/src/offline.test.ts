import * as ed from "@noble/ed25519";
import { describe, expect, it } from "vitest";
import offlineVector from "../vectors/offline.json" with { type: "json" };
import { decodeJsonSegment, encodeBase64url, utf8 } from "./base64url.ts";
import { fromHex, toHex } from "./hex.ts";
import {
  armor,
  encodeOfflineReceiptBody,
  encodeOfflineRequestBody,
  encodeOfflineResponseSigningInput,
  MAX_OFFLINE_REQUEST_CHARS,
  OFFLINE_LABELS,
  parseOfflineReceipt,
  parseOfflineRequest,
  parseOfflineResponse,
  unarmor,
  type OfflineActivationClaims,
} from "./offline.ts";

// WebCrypto, as the SDK computes it.
async function hmacHex(key: string, message: string) {
  const k = await crypto.subtle.importKey("raw", utf8(key), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return toHex(new Uint8Array(await crypto.subtle.sign("HMAC", k, utf8(message))));
}
const { request, response, receipt, licenseKey } = offlineVector;
const segment = (value: unknown) => encodeBase64url(JSON.stringify(value));

describe("golden vectors of the offline formats", () => {
  it("request: encodes to the vector's body and block, within one QR code, and parses back", async () => {
    expect(encodeOfflineRequestBody(request.payload)).toBe(request.body);
    expect(await hmacHex(licenseKey, request.macInput)).toBe(request.macHex);
    expect(request.text.length).toBeLessThanOrEqual(MAX_OFFLINE_REQUEST_CHARS);
    const parsed = parseOfflineRequest(request.text);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.request).toEqual(request.payload);
    expect(parsed.macInput).toBe(request.macInput);
    expect(toHex(parsed.mac)).toBe(request.macHex);
  });

  it("receipt: encodes to the vector's body and block and parses back", async () => {
    expect(encodeOfflineReceiptBody(receipt.payload)).toBe(receipt.body);
    expect(await hmacHex(licenseKey, receipt.macInput)).toBe(receipt.macHex);
    const parsed = parseOfflineReceipt(receipt.text);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.receipt).toEqual(receipt.payload);
    expect(toHex(parsed.mac)).toBe(receipt.macHex);
  });

  it("response: encodes the claims to the vector's signing input, parses it back, and verifies", async () => {
    const signingInput = encodeOfflineResponseSigningInput(
      offlineVector.keyId,
      response.claims as OfflineActivationClaims,
    );
    const parsed = parseOfflineResponse(response.text);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.signingInput).toBe(signingInput);
    expect(parsed.header).toEqual(response.header);
    expect(parsed.claims).toEqual(response.claims);
    const key = fromHex(offlineVector.publicKeyHex)!;
    expect(await ed.verifyAsync(parsed.signature, utf8(signingInput), key)).toBe(true);
  });
});

describe("armor", () => {
  it("wraps at 64 characters and reads back through CRLF, indentation and text around it", () => {
    const body = "x".repeat(130);
    const text = armor(OFFLINE_LABELS.receipt, body);
    expect(text.split("\n").map((line) => line.length)).toEqual([36, 64, 64, 2, 34, 0]);
    const mailed = `Hello,\r\n\r\nhere it is:\r\n  ${text.replace(/\n/g, "\r\n  ")}\r\nRegards`;
    expect(unarmor(OFFLINE_LABELS.receipt, mailed)).toBe(body);
  });

  it("finds only its own label, once", () => {
    const request = armor(OFFLINE_LABELS.request, "abc");
    expect(unarmor(OFFLINE_LABELS.response, request)).toBeNull();
    expect(unarmor(OFFLINE_LABELS.request, request + request)).toBeNull();
    expect(unarmor(OFFLINE_LABELS.request, "-----BEGIN LICENSE ACTIVATION REQUEST-----\nabc")).toBeNull();
    expect(unarmor(OFFLINE_LABELS.request, armor(OFFLINE_LABELS.request, ""))).toBeNull();
  });
});

describe("parse failures", () => {
  const [body, mac] = unarmor(OFFLINE_LABELS.request, request.text)!.split(".") as [string, string];
  const raw = decodeJsonSegment(body)!;
  const requestWith = (changes: Record<string, unknown>) =>
    armor(OFFLINE_LABELS.request, `${segment({ ...raw, ...changes })}.${mac}`);

  it("names the block, the segments or the payload", () => {
    expect(parseOfflineRequest(response.text)).toEqual({ ok: false, reason: "not-armored" });
    expect(parseOfflineReceipt(request.text)).toEqual({ ok: false, reason: "not-armored" });
    expect(parseOfflineResponse(request.text)).toEqual({ ok: false, reason: "not-armored" });
    for (const bad of [body, `${body}.${mac}.x`, `${body}.${mac.slice(1)}`, `${body}=.${mac}`]) {
      expect(parseOfflineRequest(armor(OFFLINE_LABELS.request, bad)), bad).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
    for (const changes of [
      { v: 2 },
      { lid: "not-a-uuid" },
      { fp: "" },
      { fp: "x".repeat(257) },
      { mn: "" },
      { mn: 7 },
      { nonce: "short" },
      { iat: -1 },
      { iat: 1.5 },
      { cmp: [] },
      { cmp: { "Bad Kind": (raw.cmp as Record<string, string>)["machine-id"] } },
      { cmp: { disk: "AAAA" } },
      { cmp: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "A".repeat(43)])) },
    ]) {
      expect(parseOfflineRequest(requestWith(changes)), JSON.stringify(changes)).toEqual({
        ok: false,
        reason: "invalid-payload",
      });
    }
    const parsed = parseOfflineRequest(requestWith({ mn: null, extra: true }));
    expect(parsed.ok && parsed.request.machineName).toBeNull();
  });

  it("refuses a response whose header is a license token's, or names extensions", () => {
    const [h, c, s] = unarmor(OFFLINE_LABELS.response, response.text)!.split(".") as [string, string, string];
    const withHeader = (header: unknown) => armor(OFFLINE_LABELS.response, `${segment(header)}.${c}.${s}`);
    for (const header of [
      { ...response.header, typ: "JWT" },
      { ...response.header, alg: "none" },
      { ...response.header, crit: [] },
      { ...response.header, kid: "key" },
    ]) {
      expect(parseOfflineResponse(withHeader(header))).toEqual({ ok: false, reason: "invalid-payload" });
    }
    expect(parseOfflineResponse(armor(OFFLINE_LABELS.response, `${h}.${c}`))).toEqual({
      ok: false,
      reason: "malformed",
    });
  });
});
