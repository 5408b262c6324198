import offlineVector from "@licensing/protocol/vectors/offline.json" with { type: "json" };
import { z } from "zod";
import { Uuid } from "./common.ts";
import { example } from "./examples.ts";

/**
 * Air-gapped activation through the panel (issue 24, decision 0050). The blocks themselves are the
 * protocol's formats (`packages/protocol/src/offline.ts`); here they are text a person pasted.
 */

// Room for a block pasted with CRLF, indentation or the mail it came in; the SDK's are 1,200 at most.
const Block = z.string().min(1).max(16_384);

export const OfflineActivationBody = z
  .object({
    request: Block.meta({
      description:
        "The `-----BEGIN LICENSE ACTIVATION REQUEST-----` block the machine made (`createOfflineActivationRequest`), as pasted or read from its QR code",
      examples: [offlineVector.request.text],
    }),
    validDays: z
      .int()
      .min(1)
      .max(36_500)
      .optional()
      .meta({
        description:
          "How long the certificate activates the machine, in days from now; never past the license's expiry, which is also the default",
        examples: [365],
      }),
  })
  .meta({ id: "OfflineActivationBody" });
export type OfflineActivationBody = z.infer<typeof OfflineActivationBody>;

export const OfflineActivationResult = z
  .object({
    activationId: Uuid.meta({ examples: [example.activationId] }),
    response: z.string().meta({
      description:
        "The `-----BEGIN LICENSE ACTIVATION-----` block to carry back to the machine (`applyOfflineActivation`): a JWS signed with the template's active key",
      examples: [offlineVector.response.text],
    }),
  })
  .meta({ id: "OfflineActivationResult" });
export type OfflineActivationResult = z.infer<typeof OfflineActivationResult>;

export const OfflineDeactivationBody = z
  .object({
    receipt: Block.meta({
      description: "The `-----BEGIN LICENSE DEACTIVATION-----` block the machine made (`deactivateOffline`)",
      examples: [offlineVector.receipt.text],
    }),
  })
  .meta({ id: "OfflineDeactivationBody" });
export type OfflineDeactivationBody = z.infer<typeof OfflineDeactivationBody>;

export const OfflineDeactivationResult = z
  .object({
    licenseId: Uuid.meta({ examples: [example.licenseId] }),
    activationId: Uuid.meta({ examples: [example.activationId] }),
  })
  .meta({ id: "OfflineDeactivationResult" });
export type OfflineDeactivationResult = z.infer<typeof OfflineDeactivationResult>;
