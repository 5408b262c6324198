import { describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { signatureV1, signatureV2, signRequest, verifyRequestSignature } from "./request-signature.ts";

const key = "SVC-ABCDE-FGHJK-MNPQR-STVWX-YZ012";
const now = new Date("2026-06-01T12:00:00Z");
const ts = String(now.getTime() / 1000);
const parts = {
  method: "POST",
  path: "/api/v1/client/heartbeat",
  body: '{"licenseKey":"x","activationId":"y"}',
};

function codeOf(fn: () => void) {
  try {
    fn();
    return "ok";
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
}

const verify = (
  timestamp: string | undefined,
  signature: string | undefined,
  body = parts.body,
  at = now,
  minVersion: "v1" | "v2" = "v1",
) => codeOf(() => verifyRequestSignature(key, { timestamp, signature }, { ...parts, body }, at, minVersion));

describe("verifyRequestSignature", () => {
  it("accepts v1 alone, v2 alone and both", () => {
    expect(verify(ts, `v1=${signatureV1(key, ts)}`)).toBe("ok");
    expect(verify(ts, `v2=${signatureV2(key, ts, parts)}`)).toBe("ok");
    expect(verify(ts, signRequest(key, ts, parts))).toBe("ok");
    expect(verify(ts, signRequest(key, ts, parts).toUpperCase().replace(/V/g, "v"))).toBe("ok");
  });

  it("returns the version that vouched for the request", () => {
    expect(
      verifyRequestSignature(key, { timestamp: ts, signature: `v1=${signatureV1(key, ts)}` }, parts, now),
    ).toBe("v1");
    expect(
      verifyRequestSignature(key, { timestamp: ts, signature: signRequest(key, ts, parts) }, parts, now),
    ).toBe("v2");
  });

  it("with minVersion v2, refuses v1 alone and still checks v2", () => {
    expect(verify(ts, `v1=${signatureV1(key, ts)}`, parts.body, now, "v2")).toBe("hmac.v2_required");
    expect(verify(ts, signRequest(key, ts, parts), parts.body, now, "v2")).toBe("ok");
    expect(verify(ts, `v2=${signatureV2(key, ts, parts)}`, parts.body, now, "v2")).toBe("ok");
    expect(verify(ts, signRequest(key, ts, parts), '{"licenseKey":"x","activationId":"z"}', now, "v2")).toBe(
      "hmac.mismatch",
    );
  });

  it("gives each failure its own code", () => {
    expect(verify(undefined, `v1=${signatureV1(key, ts)}`)).toBe("hmac.missing");
    expect(verify(ts, undefined)).toBe("hmac.missing");
    expect(verify("12.5", `v1=${signatureV1(key, ts)}`)).toBe("hmac.malformed");
    expect(verify(ts, "sha256=abc")).toBe("hmac.malformed");
    expect(verify(ts, `v1=${signatureV1(key, ts).slice(2)}`)).toBe("hmac.malformed");
    expect(verify(ts, `v1=${signatureV1("SVC-OTHER", ts)}`)).toBe("hmac.mismatch");
  });

  it("allows ±300 s of clock skew and not one second more", () => {
    for (const skew of [-300, 300]) {
      const t = String(Number(ts) + skew);
      expect(verify(t, `v1=${signatureV1(key, t)}`)).toBe("ok");
    }
    for (const skew of [-301, 301]) {
      const t = String(Number(ts) + skew);
      expect(verify(t, `v1=${signatureV1(key, t)}`)).toBe("hmac.stale");
    }
  });

  it("v1 cannot see a changed body; v2 refuses it, even with a valid v1 beside it", () => {
    const changed = '{"licenseKey":"x","activationId":"other"}';
    expect(verify(ts, `v1=${signatureV1(key, ts)}`, changed)).toBe("ok");
    expect(verify(ts, signRequest(key, ts, parts), changed)).toBe("hmac.mismatch");
    expect(verify(ts, `v2=${signatureV2(key, ts, parts)}`, changed)).toBe("hmac.mismatch");
  });
});
