import type { LicenseIssueResponse } from "@licensing/contracts";
import { signatureV1, signatureV2 } from "@licensing/core";
import { formatSignatureHeader, SIGNATURE_HEADERS } from "@licensing/protocol";
import type { operations } from "../catalogue.ts";
import type { BodyOf } from "./api-client.ts";
import type { TestClient } from "./http-client.ts";
import { createTemplate } from "./licensing.ts";

/** Helpers for the client API suites: a licensed company, and signed calls as the SDK makes them. */

let companies = 0;

export async function createLicensedCompany(operator: TestClient) {
  const res = await operator.api.companies.create({
    body: { name: `Customer ${++companies}`, slug: `customer-${process.pid}-${companies}` },
  });
  if (res.status !== 201) throw new Error(`company creation failed: ${res.status} ${res.text}`);
  const template = await createTemplate(operator, { defaultOfflineDays: 7 });
  return { companyId: res.body.id, templateId: template.id };
}

/** A license as `POST /licenses` returns it. */
export type IssuedLicense = LicenseIssueResponse;

export async function issueLicense(
  operator: TestClient,
  target: { companyId: string; templateId: string },
  terms: Partial<BodyOf<typeof operations.licenses.issue>> = {},
): Promise<IssuedLicense> {
  const res = await operator.api.licenses.issue({ body: { ...target, ...terms } });
  if (res.status !== 201) throw new Error(`issue failed: ${res.status} ${res.text}`);
  return res.body;
}

export interface SignOptions {
  /** Seconds added to the clock's time for X-Service-Timestamp. */
  skewSeconds?: number;
  /** Which signatures to send (default both, as the SDK does). */
  versions?: "v1" | "v2" | "both";
  /** Key for the HMAC; default the license key of the body. */
  key?: string;
  /** Sign this body but send `sendBody` (a replay with another body). */
  sendBody?: unknown;
}

/** X-Service-Timestamp and X-Service-Signature for a POST of `rawBody` to `path`, computed like the SDK. */
export function signatureHeaders(
  now: Date,
  path: string,
  rawBody: string,
  key: string,
  options: Pick<SignOptions, "skewSeconds" | "versions"> = {},
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000) + (options.skewSeconds ?? 0));
  const versions = options.versions ?? "both";
  const signature = formatSignatureHeader({
    ...(versions !== "v2" ? { v1: signatureV1(key, timestamp) } : {}),
    ...(versions !== "v1"
      ? { v2: signatureV2(key, timestamp, { method: "POST", path, body: rawBody }) }
      : {}),
  });
  return { [SIGNATURE_HEADERS.timestamp]: timestamp, [SIGNATURE_HEADERS.signature]: signature };
}

/** A POST to the client API with X-Service-Timestamp and X-Service-Signature computed like the SDK. */
export function signedPost<T = unknown>(
  client: TestClient,
  now: Date,
  path: string,
  body: { licenseKey: string } & Record<string, unknown>,
  options: SignOptions = {},
) {
  const signedBody = JSON.stringify(body);
  const headers = signatureHeaders(now, path, signedBody, options.key ?? body.licenseKey, options);
  const sent = options.sendBody === undefined ? signedBody : JSON.stringify(options.sendBody);
  return client.request<T>("POST", path, sent, headers);
}
