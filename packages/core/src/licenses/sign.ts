import type { SigningKeyRow } from "@licensing/db";
import type {
  FingerprintMatch,
  HwBinding,
  LicenseTokenConfig,
  RevocationMode,
  SeatModel,
} from "@licensing/contracts";
import { signLicenseToken, unixSeconds } from "../crypto/license-token.ts";
import type { Deps } from "../deps.ts";
import { signerFor } from "../templates/signing-keys.ts";

export interface TokenContent {
  id: string;
  licenseKey: string;
  companyId: string;
  productCode: string;
  currentVersion: number;
  expiresAt: Date;
  isTrial: boolean;
  hwBinding: HwBinding;
  hwFingerprint: string | null;
  fingerprintMatch: FingerprintMatch;
  seatModel: SeatModel;
  leaseSeconds: number;
  maxBorrowDays: number;
  revocation: RevocationMode;
  config: LicenseTokenConfig;
}

/** Signs the token of one license version with `key`, issued now (docs/client-protocol.md). */
export function signLicense(deps: Deps, key: SigningKeyRow, content: TokenContent): string {
  return signLicenseToken(
    {
      iss: deps.config.publicBaseUrl,
      sub: content.companyId,
      lid: content.id,
      lk: content.licenseKey,
      tpl: content.productCode,
      ver: content.currentVersion,
      iat: unixSeconds(deps.clock.now()),
      exp: unixSeconds(content.expiresAt),
      trial: content.isTrial,
      hw: { mode: content.hwBinding, fp: content.hwFingerprint },
      fm: content.fingerprintMatch,
      sm: content.seatModel,
      ls: content.leaseSeconds,
      mb: content.maxBorrowDays,
      rv: content.revocation,
      cfg: content.config,
    },
    signerFor(deps, key),
  );
}
