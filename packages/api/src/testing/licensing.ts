import { importJWK, jwtVerify, type JWTPayload } from "jose";
import type { TestClient } from "./http-client.ts";

/** Helpers shared by the license suites: templates made over HTTP, tokens verified the way a third party would. */

let counter = 0;

export async function createTemplate(
  operator: TestClient,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; productCode: string }> {
  const res = await operator.post("/api/v1/panel/templates", {
    name: "Licensed product",
    productCode: `LIC-${process.pid}-${++counter}`,
    defaultOfflineDays: 7,
    defaultValidityDays: 365,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`template creation failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function addVersion(operator: TestClient, templateId: string, version: Record<string, unknown>) {
  const res = await operator.post(`/api/v1/panel/templates/${templateId}/versions`, version);
  if (res.status !== 201) throw new Error(`version creation failed: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

/** Verifies a license token with `jose`, using nothing but the hex public key the API returned. */
export async function verifyWithJose(token: string, publicKeyHex: string, currentDate?: Date) {
  const key = await importJWK(
    { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKeyHex, "hex").toString("base64url") },
    "EdDSA",
  );
  const { payload, protectedHeader } = await jwtVerify(token, key, {
    algorithms: ["EdDSA"],
    ...(currentDate ? { currentDate } : {}),
  });
  return { claims: payload as JWTPayload & Record<string, unknown>, header: protectedHeader };
}
