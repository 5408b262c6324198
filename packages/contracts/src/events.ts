import { z } from "zod";
import { ActivationMode } from "./client.ts";
import { Timestamp, Uuid } from "./common.ts";
import { HwBinding } from "./license-token.ts";

/**
 * The payloads of the webhook catalogue (spec §6; the ones it does not show, docs/behaviour.md), as
 * written to the outbox in the transaction of their change and later delivered as `data`. Strict, so a
 * field added in one writer and not here fails the tests that parse the outbox.
 */

const LicenseKey = z.string().min(1);
const licenseRef = { licenseId: Uuid, licenseKey: LicenseKey };

export const LicenseIssuedData = z.strictObject({
  ...licenseRef,
  companyId: Uuid,
  templateId: Uuid,
  expiresAt: Timestamp,
});
export const LicenseRevokedData = z.strictObject({
  ...licenseRef,
  reason: z.string().nullable(),
  revokedAt: Timestamp,
});
export const LicenseExpiredData = z.strictObject({ ...licenseRef, companyId: Uuid, expiresAt: Timestamp });
export const LicenseActivatedData = z.strictObject({
  ...licenseRef,
  activationId: Uuid,
  hwFingerprint: z.string().nullable(),
  machineName: z.string().nullable(),
  clientIp: z.string().nullable(),
  mode: ActivationMode,
});
export const LicenseDeactivatedData = z.strictObject({ ...licenseRef, activationId: Uuid });
export const LicenseHeartbeatMissedData = z.strictObject({
  ...licenseRef,
  activationId: Uuid,
  lastHeartbeatAt: Timestamp.nullable(),
});
export const LicenseTransferredData = z.strictObject({
  ...licenseRef,
  fromCompanyId: Uuid,
  toCompanyId: Uuid,
  currentVersion: z.number().int().positive(),
});
export const LicenseReboundData = z.strictObject({
  ...licenseRef,
  hwBinding: HwBinding,
  hwFingerprint: z.string().nullable(),
  currentVersion: z.number().int().positive(),
  reason: z.string().nullable(),
});

export const LicenseActivationHealedData = z.strictObject({
  licenseId: Uuid,
  activationId: Uuid,
  score: z.number().min(0).max(1),
});
export const LicenseDeviceBudgetExhaustedData = z.strictObject({ licenseId: Uuid, retryAt: Timestamp });
export const LicenseSeatsExhaustedData = z.strictObject({
  licenseId: Uuid,
  maxSeats: z.number().int().positive(),
});

const event = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.strictObject({ type: z.literal(type), data });

/** One event as `publishEvents` takes it: the type and its payload. */
export const DomainEvent = z.discriminatedUnion("type", [
  event("license.issued", LicenseIssuedData),
  event("license.revoked", LicenseRevokedData),
  event("license.expired", LicenseExpiredData),
  event("license.activated", LicenseActivatedData),
  event("license.deactivated", LicenseDeactivatedData),
  event("license.heartbeat_missed", LicenseHeartbeatMissedData),
  event("license.transferred", LicenseTransferredData),
  event("license.rebound", LicenseReboundData),
  event("license.activation_healed", LicenseActivationHealedData),
  event("license.device_budget_exhausted", LicenseDeviceBudgetExhaustedData),
  event("license.seats_exhausted", LicenseSeatsExhaustedData),
]);
export type DomainEvent = z.infer<typeof DomainEvent>;

/** The catalogue (GET /webhooks/event-types), in the spec's order. */
export const EVENT_TYPES = DomainEvent.options.map((option) => option.shape.type.value);
export const EventType = z.enum(EVENT_TYPES as [DomainEvent["type"], ...DomainEvent["type"][]]);
export type EventType = DomainEvent["type"];
/** The payload of events of type `T`. */
export type EventData<T extends EventType> = Extract<DomainEvent, { type: T }>["data"];
