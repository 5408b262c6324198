import { z } from "zod";
import { Timestamp, Uuid } from "./common.ts";
import { example } from "./examples.ts";

export const ApiTokenResponse = z
  .object({
    id: Uuid,
    name: z.string().meta({ examples: ["CI deployments"] }),
    companyId: Uuid,
    prefix: z
      .string()
      .meta({ description: "short non-secret lookup prefix", examples: [example.apiTokenPrefix] }),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
  })
  .meta({ id: "ApiTokenResponse" });
export type ApiTokenResponse = z.infer<typeof ApiTokenResponse>;

// name and expiresInDays are checked by core, so a missing name or an out-of-range expiry carries the
// spec's codes (api_token.name_required, api_token.invalid_expiry) rather than request.invalid.
export const CreateApiTokenRequest = z
  .object({
    name: z
      .string()
      .max(200)
      .nullish()
      .meta({ examples: ["CI deployments"] }),
    companyId: Uuid,
    expiresInDays: z
      .number()
      .nullish()
      .meta({ description: "1..3650; absent: the token does not expire", examples: [90] }),
  })
  .meta({ id: "CreateApiTokenRequest" });
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;

export const CreateApiTokenResponse = z
  .object({
    token: ApiTokenResponse,
    secret: z.string().meta({
      description: "`svc_pat_…`; returned only here, never again",
      examples: [example.apiTokenSecret],
    }),
  })
  .meta({ id: "CreateApiTokenResponse" });
export type CreateApiTokenResponse = z.infer<typeof CreateApiTokenResponse>;

export const ListApiTokensQuery = z.object({
  companyId: Uuid.optional().meta({ description: "tokens of this company and its subtree" }),
});
