import type { HwBinding } from "@licensing/contracts";
import { sql, type SQL } from "drizzle-orm";
import { fail } from "../errors.ts";

export interface BindingState {
  hwBinding: HwBinding;
  hwFingerprint: string | null;
}

/**
 * The spec's activation table (§4): whether `fingerprint` may activate a license bound this way.
 * Returns `pin: true` when this activation pins a firstActivation license to the machine.
 */
export function checkBinding(license: BindingState, fingerprint: string | undefined): { pin: boolean } {
  switch (license.hwBinding) {
    case "none":
      return { pin: false };
    case "fixed":
      if (license.hwFingerprint === null) {
        return fail("activation.not_bound", "The license's machine was released; it awaits a rebind");
      }
      if (fingerprint !== license.hwFingerprint) {
        fail("activation.fingerprint_mismatch", "The license is bound to another machine");
      }
      return { pin: false };
    case "firstActivation":
      if (!fingerprint) {
        return fail(
          "activation.fingerprint_required",
          "hwFingerprint: required by a firstActivation license",
        );
      }
      if (license.hwFingerprint === null) return { pin: true };
      if (fingerprint !== license.hwFingerprint) {
        fail("activation.fingerprint_mismatch", "The license is bound to another machine");
      }
      return { pin: false };
  }
}

/**
 * `checkBinding`'s admission in SQL, for the one-statement activation (decision 0009): true exactly when
 * `checkBinding` would not refuse, null or false otherwise. `alias` names a licenses row, `fingerprint`
 * is a text expression (null when none was sent). binding.test.ts holds the two to the same table.
 */
export function bindingAdmitsSql(alias: string, fingerprint: SQL): SQL {
  const l = sql.raw(alias);
  return sql`case ${l}.hw_binding
                 when 'none' then true
                 when 'fixed' then ${l}.hw_fingerprint = ${fingerprint}
                 else ${fingerprint} is not null and coalesce(${l}.hw_fingerprint = ${fingerprint}, true)
               end`;
}
