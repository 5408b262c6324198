import { checkLicenseFile, type LicenseCheck } from "../license/license-file.ts";
import { checkMarker, type MarkerProblem } from "../license/marker-check.ts";
import type { MarkerPayload } from "../license/types.ts";
import type { StatusInputs } from "../status/derive-status.ts";
import { observe, type ObservedTime } from "../status/observed-time.ts";
import { parseState, type ClientState } from "./state.ts";
import type { LicenseStorage } from "./storage.ts";

/** A marker that passed every check, with its text as received. */
export interface TrustedMarker {
  text: string;
  payload: MarkerPayload;
}

/** Everything a machine holds about its license, read and checked without the network. */
export interface LocalLicense {
  license: LicenseCheck;
  /** The state file, when readable. */
  state: ClientState | null;
  /** This machine's activation: the state's, when the state is this license's. */
  activationId: string | null;
  marker: TrustedMarker | null;
  /** Why a cached marker was not trusted (null when there was none, or it was). */
  markerProblem: MarkerProblem | null;
  /** The latest time observed: the state's, the clock's and the marker's issue time. */
  observed: ObservedTime;
  /** The fingerprint markers were checked against (null when the license did not verify). */
  fingerprint: string | null;
}

const readOrNull = async (read: () => Promise<string | null>) => {
  try {
    return await read();
  } catch {
    return null;
  }
};

/**
 * Reads the license file, the state and the cached marker (spec §4 step 1: read, verify offline against
 * the configured key, check exp, load the cached marker). A marker counts only if it verifies and is this
 * license's, this activation's and this machine's; anything else is ignored, with the reason kept.
 */
export async function loadLocalLicense(
  storage: LicenseStorage,
  publicKey: Uint8Array,
  fingerprint: () => Promise<string>,
  clockNow: number,
): Promise<LocalLicense> {
  let licenseText: string | null;
  try {
    licenseText = await storage.readLicense();
  } catch {
    return unverified({ ok: false, problem: "license-file-unreadable" }, clockNow);
  }
  if (licenseText === null) return unverified({ ok: false, problem: "license-file-missing" }, clockNow);
  // The cache and the fingerprint are read while the token's signature is checked.
  const [license, stateText, markerText, fp] = await Promise.all([
    checkLicenseFile(licenseText, publicKey),
    readOrNull(() => storage.readState()),
    readOrNull(() => storage.readMarker()),
    fingerprint(),
  ]);
  if (!license.ok) return unverified(license, clockNow);
  const { claims } = license.license;
  const state = parseState(stateText);
  const activationId = state?.licenseId === claims.lid ? state.activationId : null;
  let marker: TrustedMarker | null = null;
  let markerProblem: MarkerProblem | null = null;
  if (markerText !== null) {
    const checked = await checkMarker(markerText, publicKey, {
      licenseId: claims.lid,
      activationId,
      fingerprint: fp,
    });
    if (checked.ok) marker = { text: markerText.trim(), payload: checked.payload };
    else markerProblem = checked.problem;
  }
  return {
    license,
    state,
    activationId: activationId ?? marker?.payload.aid ?? null,
    marker,
    markerProblem,
    observed: observe(state?.observed ?? null, clockNow, marker ? marker.payload.iat * 1000 : null),
    fingerprint: fp,
  };
}

const unverified = (license: LicenseCheck, clockNow: number): LocalLicense => ({
  license,
  state: null,
  activationId: null,
  marker: null,
  markerProblem: null,
  observed: { at: clockNow, clockAt: clockNow },
  fingerprint: null,
});

/** The status inputs of a license and marker, times in epoch ms. */
export function statusInputs(
  license: LicenseCheck | null,
  marker: TrustedMarker | null,
  observedAt: number | null,
): StatusInputs {
  return {
    license: !license
      ? { problem: "not-initialized" }
      : license.ok
        ? { expiresAt: license.license.claims.exp * 1000 }
        : { problem: license.problem },
    marker: marker ? { issuedAt: marker.payload.iat * 1000, expiresAt: marker.payload.exp * 1000 } : null,
    observedAt,
  };
}
