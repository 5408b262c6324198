import {
  FingerprintMatch,
  MATCH_THRESHOLDS,
  NEW_DEVICE_WINDOW_DAYS,
  type DeviceBudget,
  type LicenseTemplateResponse,
} from "@licensing/contracts";

/**
 * What each `fingerprintMatch` lets through, in words (the thresholds are the protocol's, decision 0046).
 * Keyed by the contract's enumeration: a new mode fails the typecheck until it is described here.
 */
const share = (mode: keyof typeof MATCH_THRESHOLDS) =>
  `${Math.round(MATCH_THRESHOLDS[mode] * 100)}% of the components still match`;

export const MATCH_MODES = {
  exact: { name: "Exact", accepts: "the same fingerprint only" },
  strict: { name: "Strict", accepts: share("strict") },
  fuzzy: { name: "Fuzzy", accepts: share("fuzzy") },
  loose: { name: "Loose", accepts: share("loose") },
} satisfies Record<FingerprintMatch, { name: string; accepts: string }>;

/** "Fuzzy: 60% of the components still match". */
export const matchLabel = (mode: FingerprintMatch) =>
  `${MATCH_MODES[mode].name}: ${MATCH_MODES[mode].accepts}`;

export const matchOptions = FingerprintMatch.options.map((value) => ({ value, label: matchLabel(value) }));

export const MATCH_DESCRIPTION =
  "How a machine whose fingerprint changed (a new disk, an OS upgrade) is still recognised: by the parts that did not change";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A license's device terms as the issue forms hold them: "template" and "" for the template's. */
export interface DeviceTerms {
  fingerprintMatch: FingerprintMatch | "template";
  deviceLimit: "template" | "none" | "limit";
  /** The limit when `deviceLimit` is "limit". */
  maxNewDevices: number | "";
  windowDays: number | "";
}

/**
 * The device terms as the issue request takes them: absent or null is the template's, but for the limit,
 * where null is "no limit" and only an absent one is the template's.
 */
export const deviceTermsRequest = (terms: DeviceTerms) => ({
  fingerprintMatch: terms.fingerprintMatch === "template" ? null : terms.fingerprintMatch,
  newDeviceWindowDays: terms.windowDays === "" ? null : terms.windowDays,
  ...(terms.deviceLimit === "none" && { maxNewDevicesPerWindow: null }),
  ...(terms.deviceLimit === "limit" &&
    terms.maxNewDevices !== "" && { maxNewDevicesPerWindow: terms.maxNewDevices }),
});

/** "3 new devices per 30 days", or "No limit". */
export const describeLimit = (max: number | null, windowDays: number) =>
  max === null ? "No limit" : `${plural(max, "new device", "new devices")} per ${windowDays} days`;

/** The device terms of a template's forms: an empty limit is no limit. */
export interface TemplateDeviceValues {
  fingerprintMatch: FingerprintMatch;
  maxNewDevicesPerWindow: number | "";
  newDeviceWindowDays: number;
}

export const templateDeviceValues = (template?: LicenseTemplateResponse): TemplateDeviceValues => ({
  fingerprintMatch: template?.fingerprintMatch ?? "fuzzy",
  maxNewDevicesPerWindow: template?.maxNewDevicesPerWindow ?? "",
  newDeviceWindowDays: template?.newDeviceWindowDays ?? NEW_DEVICE_WINDOW_DAYS.default,
});

export const templateDeviceRequest = (v: TemplateDeviceValues) => ({
  fingerprintMatch: v.fingerprintMatch,
  maxNewDevicesPerWindow: v.maxNewDevicesPerWindow === "" ? null : v.maxNewDevicesPerWindow,
  newDeviceWindowDays: v.newDeviceWindowDays,
});

/** What resetting the budget does, said before it is done, with this license's numbers. */
export function budgetResetConsequences({ used, max, windowDays }: DeviceBudget): string {
  const counted =
    used === 0
      ? "No new device counts now."
      : `The ${plural(used, "new device", "new devices")} counted in the last ${windowDays} days ${used === 1 ? "stops" : "stop"} counting.`;
  const after =
    max === null
      ? "The license has no limit, so no machine was being refused: only the count starts again from 0."
      : `New machines may activate again at once, up to ${plural(max, "new device", "new devices")} in the next ${windowDays} days.`;
  return `${counted} ${after} No machine is deactivated and no seat is freed. The next refusal sends the license.device_budget_exhausted webhook event again. This cannot be undone.`;
}
