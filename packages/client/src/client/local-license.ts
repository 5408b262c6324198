import { addCertificate, trustedKeys, type TrustedKeys } from "../crypto/key-chain.ts";
import { checkLicenseFile, type LicenseCheck } from "../license/license-file.ts";
import { checkMarker, type MarkerProblem } from "../license/marker-check.ts";
import type { CertificateProblem, TrustedCertificate } from "../license/offline-certificate.ts";
import type { MarkerPayload } from "../license/types.ts";
import type { StatusInputs } from "../status/derive-status.ts";
import { observe, type ObservedTime } from "../status/observed-time.ts";
import { parseState, type ClientState, type FingerprintVersion } from "./state.ts";
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
  /** The offline certificate applied on this machine (decision 0050), kept where the marker is. */
  certificate: TrustedCertificate | null;
  /** Why a cached certificate was not trusted. */
  certificateProblem: CertificateProblem | null;
  /** The latest time observed: the state's, the clock's and the marker's issue time. */
  observed: ObservedTime;
  /**
   * When the license was revoked, as the state recorded it (epoch ms): only for this license, and only when
   * its token says its revocation is `immediate`.
   */
  revokedAt: number | null;
  /** The fingerprint markers were checked against (null when the license did not verify). */
  fingerprint: string | null;
  /**
   * The default fingerprint's version for this install: the one asked for, else the state's, else 1 when
   * a cache from an earlier version exists (so an upgraded install is the same machine), else 2.
   */
  fingerprintVersion: FingerprintVersion;
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
 * the configured key, check exp, load the cached marker). The certificates the state keeps join `keys`
 * first, so a retirement learned earlier holds for the token too. A marker counts only if it verifies and
 * is this license's, this activation's and this machine's; anything else is ignored, with the reason kept.
 */
export async function loadLocalLicense(
  storage: LicenseStorage,
  keys: Uint8Array | TrustedKeys,
  fingerprint: (version: FingerprintVersion) => Promise<string>,
  clockNow: number,
  requestedVersion?: FingerprintVersion,
): Promise<LocalLicense> {
  let licenseText: string | null;
  try {
    licenseText = await storage.readLicense();
  } catch {
    return unverified({ ok: false, problem: "license-file-unreadable" }, clockNow);
  }
  if (licenseText === null) return unverified({ ok: false, problem: "license-file-missing" }, clockNow);
  const [stateText, markerText] = await Promise.all([
    readOrNull(() => storage.readState()),
    readOrNull(() => storage.readMarker()),
  ]);
  const state = parseState(stateText);
  const trusted = trustedKeys(keys);
  for (const certificate of state?.certificates ?? []) await addCertificate(trusted, certificate);
  const license = await checkLicenseFile(licenseText, trusted);
  if (!license.ok) return unverified(license, clockNow);
  const fingerprintVersion =
    requestedVersion ?? state?.fingerprintVersion ?? (stateText !== null || markerText !== null ? 1 : 2);
  const fp = await fingerprint(fingerprintVersion);
  const { claims } = license.license;
  const activationId = state?.licenseId === claims.lid ? state.activationId : null;
  let marker: TrustedMarker | null = null;
  let markerProblem: MarkerProblem | null = null;
  let certificate: TrustedCertificate | null = null;
  let certificateProblem: CertificateProblem | null = null;
  // A certificate (`LICENSE ACTIVATION`, decision 0050) rather than an online marker: its checks load then.
  if (markerText?.includes("-----BEGIN LICENSE ACTIVATION-----")) {
    const { checkCertificate } = await import("../offline.ts");
    const checked = await checkCertificate(markerText, trusted, { licenseId: claims.lid, fingerprint: fp });
    if (checked.ok) certificate = checked.certificate;
    else certificateProblem = checked.problem;
  } else if (markerText !== null) {
    const checked = await checkMarker(markerText, trusted, {
      licenseId: claims.lid,
      activationId,
      fingerprint: fp,
    });
    if (checked.ok) marker = { text: markerText.trim(), payload: checked.payload };
    else markerProblem = checked.problem;
  }
  const revoked = state?.licenseId === claims.lid && claims.rv === "immediate";
  return {
    license,
    state,
    activationId: certificate?.claims.aid ?? activationId ?? marker?.payload.aid ?? null,
    marker,
    markerProblem,
    certificate,
    certificateProblem,
    revokedAt: revoked ? (state.revokedAt ?? null) : null,
    observed: observe(
      state?.observed ?? null,
      clockNow,
      marker ? marker.payload.iat * 1000 : certificate ? certificate.claims.iat * 1000 : null,
    ),
    fingerprint: fp,
    fingerprintVersion,
  };
}

const unverified = (license: LicenseCheck, clockNow: number): LocalLicense => ({
  license,
  state: null,
  activationId: null,
  marker: null,
  markerProblem: null,
  certificate: null,
  certificateProblem: null,
  revokedAt: null,
  observed: { at: clockNow, clockAt: clockNow },
  fingerprint: null,
  fingerprintVersion: 2,
});

/** The status inputs of a license and marker, times in epoch ms. */
export function statusInputs(
  license: LicenseCheck | null,
  marker: TrustedMarker | null,
  observedAt: number | null,
  certificate: TrustedCertificate | null = null,
  revokedAt: number | null = null,
): StatusInputs {
  return {
    ...(revokedAt === null ? {} : { revokedAt }),
    license: !license
      ? { problem: "not-initialized" }
      : license.ok
        ? { expiresAt: license.license.claims.exp * 1000 }
        : { problem: license.problem },
    marker: marker ? { issuedAt: marker.payload.iat * 1000, expiresAt: marker.payload.exp * 1000 } : null,
    certificate: certificate ? { expiresAt: certificate.claims.exp * 1000 } : null,
    observedAt,
  };
}
