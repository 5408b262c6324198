import { importJWK, jwtVerify, type JWTPayload } from "jose";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "./api-client.ts";
import type { TestClient } from "./http-client.ts";

type TemplateBody = BodyOf<typeof operations.templates.create>;
type VersionBody = BodyOf<typeof operations.templates.versions.create>;

/** Helpers shared by the license suites: templates made over HTTP, tokens verified the way a third party would. */

let counter = 0;

export async function createTemplate(
  operator: TestClient,
  overrides: Partial<TemplateBody> = {},
): Promise<{ id: string; productCode: string }> {
  const res = await operator.api.templates.create({
    body: {
      name: "Licensed product",
      productCode: `LIC-${process.pid}-${++counter}`,
      defaultOfflineDays: 7,
      defaultValidityDays: 365,
      ...overrides,
    },
  });
  if (res.status !== 201) throw new Error(`template creation failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function addVersion(operator: TestClient, templateId: string, version: VersionBody) {
  const res = await operator.api.templates.versions.create({ params: { id: templateId }, body: version });
  if (res.status !== 201) throw new Error(`version creation failed: ${res.status} ${res.text}`);
  return res.body;
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
