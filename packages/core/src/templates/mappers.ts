import type { SigningKeyRow, TemplateRow, TemplateVersionRow } from "@licensing/db";
import type {
  LicenseTemplateResponse,
  SigningKeyResponse,
  TemplateVersionResponse,
} from "@licensing/contracts";

export const toTemplateResponse = (t: TemplateRow): LicenseTemplateResponse => ({
  id: t.id,
  name: t.name,
  productCode: t.productCode,
  description: t.description,
  defaultOfflineDays: t.defaultOfflineDays,
  defaultValidityDays: t.defaultValidityDays,
  fingerprintMatch: t.fingerprintMatch,
  maxNewDevicesPerWindow: t.maxNewDevicesPerWindow,
  newDeviceWindowDays: t.newDeviceWindowDays,
  seatModel: t.seatModel,
  leaseSeconds: t.leaseSeconds,
  maxBorrowDays: t.maxBorrowDays,
  revocation: t.revocation,
  status: t.status,
  currentVersionId: t.currentVersionId,
  createdAt: t.createdAt.toISOString(),
});

export const toVersionResponse = (v: TemplateVersionRow): TemplateVersionResponse => ({
  id: v.id,
  templateId: v.templateId,
  version: v.version,
  configSchema: v.configSchema,
  defaults: v.defaults,
  signingKeyId: v.signingKeyId,
  changelog: v.changelog,
  createdAt: v.createdAt.toISOString(),
});

/** Never the private key: the response is built field by field from the public ones. */
export const toSigningKeyResponse = (k: SigningKeyRow): SigningKeyResponse => ({
  id: k.id,
  status: k.status,
  notBefore: k.notBefore.toISOString(),
  notAfter: k.notAfter?.toISOString() ?? null,
  createdAt: k.createdAt.toISOString(),
  publicKeyHex: k.publicKeyHex,
  isRoot: k.isRoot,
});
