import {
  LEASE_SECONDS,
  MAX_BORROW_DAYS,
  type LicenseTemplateResponse,
  type SeatModel,
} from "@licensing/contracts";

/** The seat models in words (decision 0048); keyed by the contract's enumeration. */
export const SEAT_MODELS = {
  nodeLocked: {
    name: "Node-locked",
    means: "Each activated machine holds a seat until it deactivates (limits.maxSeats caps the machines)",
  },
  floating: {
    name: "Floating",
    means:
      "Machines lease a seat while the program runs (limits.maxSeats caps the leases live at once; limits.maxMachines may cap the registered machines)",
  },
} satisfies Record<SeatModel, { name: string; means: string }>;

export const seatModelOptions = (Object.keys(SEAT_MODELS) as SeatModel[]).map((value) => ({
  value,
  label: SEAT_MODELS[value].name,
}));

/** "15 min", "1 h 30 min", "45 s". */
export function formatDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h && `${h} h`, m && `${m} min`, s && `${s} s`].filter(Boolean);
  return parts.length ? parts.join(" ") : "0 s";
}

/** The checks the server makes, as messages at each field (undefined: fine; "" is "the default"). */
export const leaseSecondsError = (value: number | "") =>
  value !== "" && (!Number.isInteger(value) || value < LEASE_SECONDS.min || value > LEASE_SECONDS.max)
    ? `A lease lasts ${LEASE_SECONDS.min} to ${LEASE_SECONDS.max} seconds (a whole number)`
    : undefined;
export const maxBorrowDaysError = (value: number | "") =>
  value !== "" && (!Number.isInteger(value) || value < MAX_BORROW_DAYS.min || value > MAX_BORROW_DAYS.max)
    ? `Borrowing is allowed for ${MAX_BORROW_DAYS.min} (none) to ${MAX_BORROW_DAYS.max} days (a whole number)`
    : undefined;
export const maxMachinesError = (value: number | "") =>
  value !== "" && (!Number.isInteger(value) || value < 1)
    ? "At least 1 machine (a whole number), or empty for no limit"
    : undefined;

/** A template's seat terms in its forms. */
export interface TemplateSeatValues {
  seatModel: SeatModel;
  leaseSeconds: number | "";
  maxBorrowDays: number | "";
}

export const templateSeatValues = (template?: LicenseTemplateResponse): TemplateSeatValues => ({
  seatModel: template?.seatModel ?? "nodeLocked",
  leaseSeconds: template?.leaseSeconds ?? LEASE_SECONDS.default,
  maxBorrowDays: template?.maxBorrowDays ?? MAX_BORROW_DAYS.default,
});

/** `useForm`'s `validate` for the seat terms (an empty field is refused: the template needs a value). */
export const templateSeatValidate = {
  leaseSeconds: (value: number | "") =>
    value === "" ? "How long a lease lasts, in seconds" : leaseSecondsError(value),
  maxBorrowDays: (value: number | "") =>
    value === "" ? "How many days a lease may be borrowed; 0 for none" : maxBorrowDaysError(value),
};

export const templateSeatRequest = (v: TemplateSeatValues) => ({
  seatModel: v.seatModel,
  leaseSeconds: v.leaseSeconds === "" ? LEASE_SECONDS.default : v.leaseSeconds,
  maxBorrowDays: v.maxBorrowDays === "" ? MAX_BORROW_DAYS.default : v.maxBorrowDays,
});

/** A license's seat terms as the issue forms hold them: "template" and "" for the template's. */
export interface SeatTerms {
  seatModel: SeatModel | "template";
  leaseSeconds: number | "";
  maxBorrowDays: number | "";
  /** Goes into the configuration's `limits.maxMachines` on a floating license; "" leaves it as it is. */
  maxMachines: number | "";
}

export const defaultSeatTerms: SeatTerms = {
  seatModel: "template",
  leaseSeconds: "",
  maxBorrowDays: "",
  maxMachines: "",
};

/** The model a license is issued with: its own, else the template's. */
export const effectiveSeatModel = (terms: SeatTerms, template?: LicenseTemplateResponse) =>
  terms.seatModel === "template" ? (template?.seatModel ?? "nodeLocked") : terms.seatModel;

/** The first seat term the server would refuse, as a message; undefined when all are fine. */
export const seatTermsError = (terms: SeatTerms) =>
  leaseSecondsError(terms.leaseSeconds) ??
  maxBorrowDaysError(terms.maxBorrowDays) ??
  maxMachinesError(terms.maxMachines);

/** The issue request's seat fields: absent (null) is the template's. */
export const seatTermsRequest = (terms: SeatTerms) => ({
  seatModel: terms.seatModel === "template" ? null : terms.seatModel,
  leaseSeconds: terms.leaseSeconds === "" ? null : terms.leaseSeconds,
  maxBorrowDays: terms.maxBorrowDays === "" ? null : terms.maxBorrowDays,
});

/**
 * The configuration with `limits.maxMachines` set, for a floating license whose form has a machine limit;
 * otherwise as it is. A configuration that is not a JSON object is left for the server to refuse.
 */
export function withMaxMachines(config: string, terms: SeatTerms, floating: boolean): string {
  if (!floating || terms.maxMachines === "") return config;
  try {
    const value = JSON.parse(config || "{}") as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return config;
    const object = value as Record<string, unknown>;
    const limits =
      typeof object.limits === "object" && object.limits !== null && !Array.isArray(object.limits)
        ? (object.limits as Record<string, unknown>)
        : {};
    return JSON.stringify({ ...object, limits: { ...limits, maxMachines: terms.maxMachines } });
  } catch {
    return config;
  }
}

/** A positive integer at `limits.<name>` of a license's configuration, else null (no limit). */
export function configLimit(config: string, name: "maxSeats" | "maxMachines"): number | null {
  try {
    const limits = (JSON.parse(config) as { limits?: Record<string, unknown> }).limits;
    const value = limits?.[name];
    return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** What force-releasing a lease does, said before it is done. */
export const forceReleaseConsequences = (machine: string | null) =>
  `The seat ${machine ? `held by ${machine} ` : ""}is free at once for another machine. The program on ${machine ?? "that machine"} is not stopped: its next renew is refused (410 lease.released), and it then looks for a seat again, which it gets only if one is free. Nothing else changes: the machine stays activated.`;
