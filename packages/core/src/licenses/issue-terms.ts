import { eq } from "drizzle-orm";
import {
  tables,
  type Executor,
  type SigningKeyRow,
  type TemplateRow,
  type TemplateVersionRow,
} from "@licensing/db";
import type { FingerprintMatch, HwBinding, RevocationMode, SeatModel } from "@licensing/contracts";
import { DAY } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { loadTemplate } from "../templates/load.ts";
import { activeSigningKey } from "../templates/signing-keys.ts";

/** What every license issued from one template right now shares. */
export interface IssueContext {
  template: TemplateRow;
  version: TemplateVersionRow | null;
  key: SigningKeyRow;
}

export async function loadIssueContext(executor: Executor, templateId: string): Promise<IssueContext> {
  const template = await loadTemplate(executor, templateId);
  if (template.status !== "Active") {
    fail("template.archived", `Template ${template.productCode} is archived; it issues no new licenses`);
  }
  const [version] = template.currentVersionId
    ? await executor
        .select()
        .from(tables.templateVersions)
        .where(eq(tables.templateVersions.id, template.currentVersionId))
    : [];
  return { template, version: version ?? null, key: await activeSigningKey(executor, templateId) };
}

export interface IssueTermsInput {
  expiresAt?: string | null | undefined;
  offlineDays?: number | null | undefined;
  isTrial: boolean;
  hwBinding?: HwBinding | null | undefined;
  hwFingerprint?: string | null | undefined;
  fingerprintMatch?: FingerprintMatch | null | undefined;
  /** Absent: the template's; null: no limit. */
  maxNewDevicesPerWindow?: number | null | undefined;
  newDeviceWindowDays?: number | null | undefined;
  seatModel?: SeatModel | null | undefined;
  leaseSeconds?: number | null | undefined;
  maxBorrowDays?: number | null | undefined;
  revocation?: RevocationMode | null | undefined;
}

export interface IssueTerms {
  expiresAt: Date;
  offlineDays: number;
  isTrial: boolean;
  hwBinding: HwBinding;
  hwFingerprint: string | null;
  fingerprintMatch: FingerprintMatch;
  maxNewDevicesPerWindow: number | null;
  newDeviceWindowDays: number;
  seatModel: SeatModel;
  leaseSeconds: number;
  maxBorrowDays: number;
  revocation: RevocationMode;
}

/**
 * The spec's issue rules 1–3 (§4): expiry defaults, offlineDays clamping, binding defaults; and the
 * device and seat terms and the revocation mode, the request's or else the template's.
 */
export function resolveIssueTerms(deps: Deps, template: TemplateRow, input: IssueTermsInput): IssueTerms {
  const now = deps.clock.now();
  const { maxOfflineDays, defaultTrialDays } = deps.config.licensing;
  const days = input.isTrial ? defaultTrialDays : template.defaultValidityDays;
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : new Date(now.getTime() + days * DAY);
  if (expiresAt <= now) fail("license.invalid_expiry", "expiresAt must lie in the future");

  const offlineDays = Math.min(maxOfflineDays, Math.max(1, input.offlineDays ?? template.defaultOfflineDays));

  const hwFingerprint = input.hwFingerprint ?? null;
  const hwBinding = input.hwBinding ?? (hwFingerprint ? "fixed" : "none");
  if (hwBinding === "fixed" && !hwFingerprint) {
    fail("license.invalid_binding", "hwBinding fixed needs the hwFingerprint of the machine");
  }
  refuseFingerprintWithoutBinding(hwBinding, hwFingerprint);
  return {
    expiresAt,
    offlineDays,
    isTrial: input.isTrial,
    hwBinding,
    hwFingerprint,
    // The device and seat terms are the license's from now on: a later template edit does not change them.
    fingerprintMatch: input.fingerprintMatch ?? template.fingerprintMatch,
    maxNewDevicesPerWindow:
      input.maxNewDevicesPerWindow === undefined
        ? template.maxNewDevicesPerWindow
        : input.maxNewDevicesPerWindow,
    newDeviceWindowDays: input.newDeviceWindowDays ?? template.newDeviceWindowDays,
    seatModel: input.seatModel ?? template.seatModel,
    leaseSeconds: input.leaseSeconds ?? template.leaseSeconds,
    maxBorrowDays: input.maxBorrowDays ?? template.maxBorrowDays,
    // Signed into the token (`rv`), so it is the license's for good: a template edit changes new ones only.
    revocation: input.revocation ?? template.revocation,
  };
}

/**
 * At issue and at rebind alike. (A rebind may leave `fixed` without a fingerprint: the spec's
 * `activation.not_bound` state, awaiting the next rebind; an issue may not.)
 */
export function refuseFingerprintWithoutBinding(hwBinding: HwBinding, hwFingerprint: string | null): void {
  if (hwBinding === "none" && hwFingerprint) {
    fail("license.invalid_binding", "hwBinding none binds no machine; omit hwFingerprint or choose fixed");
  }
}
