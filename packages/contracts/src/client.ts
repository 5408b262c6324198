import { COMPONENT_HASH_PATTERN, COMPONENT_KIND_PATTERN, MAX_COMPONENTS } from "@licensing/protocol";
import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";

/** The certificates that come with a marker (decision 0049); each is present only when it applies. */
const markerCertificates = {
  certificate: z
    .string()
    .optional()
    .meta({
      description:
        "The root key's certificate (JWS) of the key that signed the marker, whose `kid` names it; present only when that key is not the template's root",
      examples: [example.certificate],
    }),
  licenseCertificate: z.string().optional().meta({
    description:
      "When the key that signed the license token was retired: its certificate, now with an end (`exp`), so the program refuses what that key signs afterwards",
  }),
};

/** A license key as the client sends it; unknown keys are a 404, so only the size is checked here. */
const LicenseKey = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .meta({ examples: [example.licenseKey] });

/** One source of a machine's identity (machine id, disk, network card …), hashed by the client. */
export const FingerprintComponent = z
  .object({
    kind: z
      .string()
      .regex(COMPONENT_KIND_PATTERN, { message: "1 to 32 characters of a-z 0-9 -" })
      .meta({ description: "What the hash is of; unique within the request", examples: ["machine-id"] }),
    hash: z
      .string()
      .regex(COMPONENT_HASH_PATTERN, { message: "64 lowercase hex characters (a SHA-256)" })
      .meta({
        description: "Lowercase hex SHA-256 of the source, salted by the client",
        examples: [example.fingerprint],
      }),
  })
  .meta({ id: "FingerprintComponent" });
export type FingerprintComponent = z.infer<typeof FingerprintComponent>;

export const FingerprintComponents = z
  .array(FingerprintComponent)
  .max(MAX_COMPONENTS)
  .superRefine((components, ctx) => {
    const seen = new Set<string>();
    components.forEach((component, index) => {
      if (seen.has(component.kind)) {
        ctx.addIssue({
          code: "custom",
          path: [index, "kind"],
          message: `duplicate kind "${component.kind}"`,
        });
      }
      seen.add(component.kind);
    });
  })
  .meta({
    description: `At most ${MAX_COMPONENTS} components, each kind once. With them, a machine whose hwFingerprint changed is recognised by the components that did not (fingerprintMatch).`,
  });

export const ActivateRequest = z
  .object({
    licenseKey: LicenseKey,
    hwFingerprint: z
      .string()
      .trim()
      .min(1)
      .max(256)
      .optional()
      .meta({ description: "Identifies the machine (the SDK derives it)", examples: [example.fingerprint] }),
    // null is "no name", as older SDKs send it when the host has none.
    machineName: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullish()
      .meta({ examples: [example.machineName] }),
    components: FingerprintComponents.optional(),
  })
  .meta({ id: "ActivateRequest" });
export type ActivateRequest = z.infer<typeof ActivateRequest>;

export const ActivateResponse = z
  .object({
    activationId: Uuid.meta({ examples: [example.activationId] }),
    heartbeatToken: z.string().meta({ description: "Signed offline marker", examples: [example.marker] }),
    heartbeatIntervalSeconds: z
      .int()
      .positive()
      .meta({ examples: [900] }),
    maxOfflineDays: z
      .int()
      .positive()
      .meta({ examples: [7] }),
    healed: z.boolean().meta({
      description:
        "True when the machine's fingerprint had changed and its components recognised it: the activation is the machine's earlier one, now with the new fingerprint, and no seat was taken",
      examples: [false],
    }),
    ...markerCertificates,
  })
  .meta({ id: "ActivateResponse" });
export type ActivateResponse = z.infer<typeof ActivateResponse>;

/** A live activation as the client API shows it: never a fingerprint or a component. */
export const Machine = z
  .object({
    activationId: Uuid.meta({ examples: [example.activationId] }),
    machineName: z
      .string()
      .nullable()
      .meta({ examples: [example.machineName] }),
    activatedAt: Timestamp,
    lastHeartbeatAt: Timestamp.nullable(),
  })
  .meta({ id: "Machine" });
export type Machine = z.infer<typeof Machine>;

export const MachinesRequest = z.object({ licenseKey: LicenseKey }).meta({ id: "MachinesRequest" });
export type MachinesRequest = z.infer<typeof MachinesRequest>;

export const MachinesResponse = z
  .object({
    machines: z.array(Machine).meta({ description: "The license's live activations, oldest first" }),
  })
  .meta({ id: "MachinesResponse" });
export type MachinesResponse = z.infer<typeof MachinesResponse>;

export const ActivationRequest = z
  .object({ licenseKey: LicenseKey, activationId: Uuid.meta({ examples: [example.activationId] }) })
  .meta({ id: "ActivationRequest", description: "Body of heartbeat and deactivate" });
export type ActivationRequest = z.infer<typeof ActivationRequest>;

export const HeartbeatResponse = z
  .object({
    heartbeatToken: z.string().meta({ description: "Signed offline marker", examples: [example.marker] }),
    ...markerCertificates,
  })
  .meta({ id: "HeartbeatResponse" });
export type HeartbeatResponse = z.infer<typeof HeartbeatResponse>;

export const ClientPublicKeyResponse = z
  .object({
    publicKey: z
      .string()
      .meta({ description: "hex of the raw Ed25519 public key", examples: [example.publicKeyHex] }),
  })
  .meta({ id: "ClientPublicKeyResponse" });

export const LicenseKeyParams = z.object({ licenseKey: LicenseKey });

/** GET /client/revocations (decision 0049). */
export const RevocationsQuery = z.object({
  templateId: Uuid.meta({ examples: [example.templateId] }),
  since: Timestamp.optional().meta({
    description: "Only licenses revoked at or after this time; absent: every one",
  }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "The `next` of the previous page's list, for the page after it" }),
});
export type RevocationsQuery = z.infer<typeof RevocationsQuery>;

export const RevocationListResponse = z
  .object({
    list: z.string().meta({
      description:
        "A JWS (typ revocation-list) signed by the template's Active key, its certificate in the header's `crt`: `{tid, tpl, since, iat, revoked: [{lid, revokedAt}], next}`, at most 10,000 licenses oldest first, `next` the cursor of the following page or null",
      examples: [example.revocationList],
    }),
  })
  .meta({ id: "RevocationListResponse" });
export type RevocationListResponse = z.infer<typeof RevocationListResponse>;

export const ActivationStatus = z.enum(["active", "deactivated"]);
/** `online`: through the client API; `offline`: through the panel, with a request the machine made (0050). */
export const ACTIVATION_MODES = ["online", "offline"] as const;
export const ActivationMode = z.enum(ACTIVATION_MODES);
export type ActivationMode = z.infer<typeof ActivationMode>;

export const ActivationHeal = z
  .object({
    healedAt: Timestamp,
    score: z
      .number()
      .meta({ description: "The share of the stored components that matched", examples: [0.8] }),
    changedKinds: z
      .array(z.string())
      .meta({ description: "The kinds that had changed or were missing", examples: [["disk"]] }),
  })
  .meta({ id: "ActivationHeal" });
export type ActivationHeal = z.infer<typeof ActivationHeal>;

export const ActivationResponse = z
  .object({
    id: Uuid,
    hwFingerprint: z
      .string()
      .nullable()
      .meta({ examples: [example.fingerprint] }),
    machineName: z
      .string()
      .nullable()
      .meta({ examples: [example.machineName] }),
    status: ActivationStatus,
    mode: ActivationMode.meta({
      description:
        "`offline`: activated through the panel with a request the machine carried; it holds a certificate and sends no heartbeat",
    }),
    activatedAt: Timestamp,
    lastHeartbeatAt: Timestamp.nullable(),
    deactivatedAt: Timestamp.nullable(),
    componentKinds: z.array(z.string()).meta({
      description: "The kinds of the machine's fingerprint components (never their hashes)",
      examples: [["machine-id", "disk", "mac"]],
    }),
    newDevice: z
      .boolean()
      .meta({ description: "It brought a device new to the license (it counts against the device budget)" }),
    heals: z.array(ActivationHeal).meta({
      description:
        "Each time the machine's fingerprint changed and its components recognised it, oldest first",
    }),
  })
  .meta({ id: "ActivationResponse" });
export type ActivationResponse = z.infer<typeof ActivationResponse>;

export const HeartbeatRecordResponse = z
  .object({ id: Uuid, activationId: Uuid, occurredAt: Timestamp })
  .meta({ id: "HeartbeatRecordResponse" });
export type HeartbeatRecordResponse = z.infer<typeof HeartbeatRecordResponse>;

export const HeartbeatsQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });
export const ActivationParams = z.object({ id: Uuid, activationId: Uuid });

/** A lease of a floating license (decision 0048), as the client API answers it. */
export const LeaseResponse = z
  .object({
    leaseId: Uuid.meta({ examples: [example.leaseId] }),
    expiresAt: Timestamp.meta({
      description: "The lease is live until then unless renewed (or released); a borrow's `until`",
    }),
    renewAfterSeconds: z
      .int()
      .min(1)
      .meta({
        description: "When to renew, counted from now: a third of the time the lease has left",
        examples: [300],
      }),
    leaseToken: z.string().meta({
      description:
        'Signed like the offline marker, with typ "lease", the lease id (lsid) and exp = expiresAt (docs/client-protocol.md)',
      examples: [example.leaseToken],
    }),
    ...markerCertificates,
  })
  .meta({ id: "LeaseResponse" });
export type LeaseResponse = z.infer<typeof LeaseResponse>;

export const AcquireLeaseRequest = z
  .object({ licenseKey: LicenseKey, activationId: Uuid.meta({ examples: [example.activationId] }) })
  .meta({ id: "AcquireLeaseRequest" });
export type AcquireLeaseRequest = z.infer<typeof AcquireLeaseRequest>;

export const LeaseRequest = z
  .object({ licenseKey: LicenseKey, leaseId: Uuid.meta({ examples: [example.leaseId] }) })
  .meta({ id: "LeaseRequest", description: "Body of renew and release" });
export type LeaseRequest = z.infer<typeof LeaseRequest>;

export const BorrowLeaseRequest = z
  .object({
    licenseKey: LicenseKey,
    leaseId: Uuid.meta({ examples: [example.leaseId] }),
    until: Timestamp.meta({
      description: "When the borrowed lease ends: in the future, at most the license's maxBorrowDays ahead",
    }),
  })
  .meta({ id: "BorrowLeaseRequest" });
export type BorrowLeaseRequest = z.infer<typeof BorrowLeaseRequest>;

/** A machine holding one of a full pool's leases, as a refusal shows it: never a fingerprint. */
export const LeaseHolder = z
  .object({
    machineName: z
      .string()
      .nullable()
      .meta({ examples: [example.machineName] }),
    acquiredAt: Timestamp,
    expiresAt: Timestamp,
  })
  .meta({ id: "LeaseHolder" });
export type LeaseHolder = z.infer<typeof LeaseHolder>;

/** A live lease as the panel shows it. */
export const LicenseLeaseResponse = z
  .object({
    leaseId: Uuid.meta({ examples: [example.leaseId] }),
    activationId: Uuid.meta({ examples: [example.activationId] }),
    machineName: z
      .string()
      .nullable()
      .meta({ examples: [example.machineName] }),
    acquiredAt: Timestamp.meta({
      description: "When the machine took the seat (its latest renewal kept it)",
    }),
    expiresAt: Timestamp,
    borrowedUntil: Timestamp.nullable().meta({
      description: "While the lease is borrowed for offline work: until when; null otherwise",
    }),
  })
  .meta({ id: "LicenseLeaseResponse" });
export type LicenseLeaseResponse = z.infer<typeof LicenseLeaseResponse>;

export const LeaseParams = z.object({ leaseId: Uuid.meta({ examples: [example.leaseId] }) });

/** Headers of a signed client request (spec §5 Client HMAC). */
export const SIGNATURE_HEADERS = {
  timestamp: "x-service-timestamp",
  signature: "x-service-signature",
} as const;
