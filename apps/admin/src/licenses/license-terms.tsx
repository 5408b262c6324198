import {
  LEASE_SECONDS,
  MAX_BORROW_DAYS,
  NEW_DEVICE_WINDOW_DAYS,
  type HwBinding,
  type LicenseTemplateResponse,
  type RevocationMode,
} from "@licensing/contracts";
import { Checkbox, NumberInput, Select, TextInput } from "@mantine/core";
import type { ReactNode } from "react";
import {
  describeLimit,
  deviceTermsRequest,
  MATCH_DESCRIPTION,
  matchLabel,
  matchOptions,
  type DeviceTerms,
} from "./device-terms.ts";
import { REVOCATION_MODES, revocationMeaning, revocationOptions } from "./revocation-terms.ts";
import {
  defaultSeatTerms,
  effectiveSeatModel,
  formatDuration,
  leaseSecondsError,
  maxBorrowDaysError,
  maxMachinesError,
  SEAT_MODELS,
  seatModelOptions,
  seatTermsRequest,
  type SeatTerms,
} from "./seat-terms.ts";

/** The terms a new license is issued with, as the issue forms hold them ("" for "the default"). */
export interface LicenseTerms extends DeviceTerms, SeatTerms {
  expiresOn: string;
  offlineDays: number | "";
  /** "auto": the server's rule (fixed with a fingerprint, none without). */
  binding: HwBinding | "auto";
  isTrial: boolean;
  revocation: RevocationMode | "template";
}

export const defaultTerms = (binding: LicenseTerms["binding"]): LicenseTerms => ({
  expiresOn: "",
  offlineDays: "",
  binding,
  isTrial: false,
  fingerprintMatch: "template",
  deviceLimit: "template",
  maxNewDevices: "",
  windowDays: "",
  revocation: "template",
  ...defaultSeatTerms,
});

/** The API's fields: a date expires at the end of that day (UTC), and an empty field is the default. */
export const termsRequest = (terms: LicenseTerms) => ({
  expiresAt: terms.expiresOn ? new Date(`${terms.expiresOn}T23:59:59Z`).toISOString() : null,
  offlineDays: terms.offlineDays === "" ? null : terms.offlineDays,
  isTrial: terms.isTrial,
  hwBinding: terms.binding === "auto" ? null : terms.binding,
  ...deviceTermsRequest(terms),
  ...seatTermsRequest(terms),
  revocation: terms.revocation === "template" ? null : terms.revocation,
});

const BINDING_LABELS: Record<LicenseTerms["binding"], string> = {
  auto: "Automatic: fixed with a fingerprint, none without",
  none: "None: any machine",
  fixed: "Fixed to the fingerprint below",
  firstActivation: "The first machine that activates",
};

/**
 * Expiry, offline days, hardware binding, fingerprint matching, device budget, revocation and trial, for one
 * license or a batch (`bindings` lists the modes the form offers; `fieldError` puts the API's message at its field; `children` stand after the
 * binding, e.g. its fingerprint). Lays out in the caller's grid.
 */
export function LicenseTermsFields({
  terms,
  onChange,
  template,
  bindings,
  fieldError,
  trialLabel = "Trial license",
  machineLimit = true,
  children,
}: {
  terms: LicenseTerms;
  onChange: (terms: LicenseTerms) => void;
  template: LicenseTemplateResponse | undefined;
  bindings: LicenseTerms["binding"][];
  fieldError: (code: string) => string | undefined;
  trialLabel?: string;
  /** Offer `limits.maxMachines` (the caller writes it into the configuration) on a floating license. */
  machineLimit?: boolean;
  children?: ReactNode;
}) {
  const set = (change: Partial<LicenseTerms>) => onChange({ ...terms, ...change });
  const revocation = terms.revocation === "template" ? template?.revocation : terms.revocation;
  const floating = effectiveSeatModel(terms, template) === "floating";
  const seatModel = terms.seatModel === "template" ? template?.seatModel : terms.seatModel;
  return (
    <>
      <TextInput
        label="Expires on"
        type="date"
        description={`Empty: ${template ? `${template.defaultValidityDays} days` : "the template's validity"} from today (trials: the trial length)`}
        value={terms.expiresOn}
        onChange={(e) => set({ expiresOn: e.currentTarget.value })}
        error={fieldError("license.invalid_expiry")}
      />
      <NumberInput
        label="Offline days"
        description={`Empty: the template's ${template ? template.defaultOfflineDays : "default"}`}
        min={1}
        max={30}
        value={terms.offlineDays}
        onChange={(v) => set({ offlineDays: typeof v === "number" ? v : "" })}
      />
      <Select
        label="Hardware binding"
        allowDeselect={false}
        data={bindings.map((value) => ({ value, label: BINDING_LABELS[value] }))}
        value={terms.binding}
        onChange={(v) => v && set({ binding: v as LicenseTerms["binding"] })}
        error={fieldError("license.invalid_binding")}
      />
      {children}
      <Select
        label="Fingerprint matching"
        description={MATCH_DESCRIPTION}
        allowDeselect={false}
        data={[
          {
            value: "template",
            label: `The template's${template ? `: ${matchLabel(template.fingerprintMatch)}` : ""}`,
          },
          ...matchOptions,
        ]}
        value={terms.fingerprintMatch}
        onChange={(v) => v && set({ fingerprintMatch: v as LicenseTerms["fingerprintMatch"] })}
      />
      <Select
        label="New devices"
        description="How many machines new to the license may activate within the device window"
        allowDeselect={false}
        data={[
          {
            value: "template",
            label: `The template's${template ? `: ${describeLimit(template.maxNewDevicesPerWindow, template.newDeviceWindowDays)}` : ""}`,
          },
          { value: "none", label: "No limit" },
          { value: "limit", label: "A limit of its own" },
        ]}
        value={terms.deviceLimit}
        onChange={(v) =>
          v &&
          set({
            deviceLimit: v as LicenseTerms["deviceLimit"],
            maxNewDevices:
              terms.maxNewDevices === "" ? (template?.maxNewDevicesPerWindow ?? "") : terms.maxNewDevices,
          })
        }
      />
      {terms.deviceLimit === "limit" && (
        <NumberInput
          label="New devices per window"
          required
          min={1}
          allowDecimal={false}
          value={terms.maxNewDevices}
          onChange={(v) => set({ maxNewDevices: typeof v === "number" ? v : "" })}
        />
      )}
      <NumberInput
        label="Device window (days)"
        description={`Empty: the template's ${template ? template.newDeviceWindowDays : "window"}`}
        min={NEW_DEVICE_WINDOW_DAYS.min}
        max={NEW_DEVICE_WINDOW_DAYS.max}
        allowDecimal={false}
        value={terms.windowDays}
        onChange={(v) => set({ windowDays: typeof v === "number" ? v : "" })}
      />
      <Select
        label="Revocation"
        description={
          revocation ? revocationMeaning(revocation) : "What revoking the license does on its machines"
        }
        allowDeselect={false}
        data={[
          {
            value: "template",
            label: `The template's${template ? `: ${REVOCATION_MODES[template.revocation].name}` : ""}`,
          },
          ...revocationOptions,
        ]}
        value={terms.revocation}
        onChange={(v) => v && set({ revocation: v as LicenseTerms["revocation"] })}
      />
      <Select
        label="Seats"
        description={seatModel ? SEAT_MODELS[seatModel].means : "How the license's seats are counted"}
        allowDeselect={false}
        data={[
          {
            value: "template",
            label: `The template's${template ? `: ${SEAT_MODELS[template.seatModel].name}` : ""}`,
          },
          ...seatModelOptions,
        ]}
        value={terms.seatModel}
        onChange={(v) => v && set({ seatModel: v as LicenseTerms["seatModel"] })}
      />
      {floating && (
        <>
          <NumberInput
            label="Lease (seconds)"
            description={`How long a seat is held without a renew, ${LEASE_SECONDS.min} to ${LEASE_SECONDS.max}. Empty: the template's ${template ? formatDuration(template.leaseSeconds) : "length"}`}
            min={LEASE_SECONDS.min}
            max={LEASE_SECONDS.max}
            allowDecimal={false}
            clampBehavior="none"
            value={terms.leaseSeconds}
            onChange={(v) => set({ leaseSeconds: typeof v === "number" ? v : "" })}
            error={leaseSecondsError(terms.leaseSeconds)}
          />
          <NumberInput
            label="Borrowing (days)"
            description={`How far ahead a lease may be borrowed for offline work, ${MAX_BORROW_DAYS.min} (none) to ${MAX_BORROW_DAYS.max}. Empty: the template's ${template ? template.maxBorrowDays : "days"}`}
            min={MAX_BORROW_DAYS.min}
            max={MAX_BORROW_DAYS.max}
            allowDecimal={false}
            clampBehavior="none"
            value={terms.maxBorrowDays}
            onChange={(v) => set({ maxBorrowDays: typeof v === "number" ? v : "" })}
            error={maxBorrowDaysError(terms.maxBorrowDays)}
          />
          {machineLimit && (
            <NumberInput
              label="Machines (limits.maxMachines)"
              description="How many machines may be activated; written into the configuration. Empty: as the configuration says"
              min={1}
              allowDecimal={false}
              clampBehavior="none"
              value={terms.maxMachines}
              onChange={(v) => set({ maxMachines: typeof v === "number" ? v : "" })}
              error={maxMachinesError(terms.maxMachines)}
            />
          )}
        </>
      )}
      <Checkbox
        label={trialLabel}
        checked={terms.isTrial}
        onChange={(e) => set({ isTrial: e.currentTarget.checked })}
      />
    </>
  );
}
