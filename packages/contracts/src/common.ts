import { z } from "zod";
import { example } from "./examples.ts";

export const Uuid = z.uuid().meta({ examples: [example.id] });
export const Timestamp = z.iso
  .datetime({ offset: true })
  .meta({ description: "ISO 8601 timestamp", examples: [example.timestamp] });
export const Email = z
  .email()
  .max(254)
  .transform((v) => v.toLowerCase());
/** Passwords are checked for length by the use-case, so the message can carry the spec's code. */
export const Password = z
  .string()
  .min(1)
  .max(256)
  .meta({ examples: [example.password] });
export const DisplayName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .meta({ examples: [example.displayName] });
export const CompanyRole = z.enum(["owner", "admin", "viewer"]);
export type CompanyRole = z.infer<typeof CompanyRole>;
export const UserStatus = z.enum(["pending", "active", "revoked"]);

export const IdParams = z.object({ id: Uuid });

/**
 * Up to this many matches a paged `total` is an exact count; past it, the planner's estimate (decision
 * 0005), which the admin app shows as approximate.
 */
export const EXACT_TOTAL_LIMIT = 1_000;

/** The `total` and `totalIsEstimate` of a paged list whose total can be an estimate. */
export const estimableTotal = {
  total: z
    .int()
    .min(0)
    .meta({
      description: `The number of matches: exact up to ${EXACT_TOTAL_LIMIT.toLocaleString("en")}, the planner's estimate past that (see totalIsEstimate)`,
      examples: [1],
    }),
  totalIsEstimate: z.boolean().meta({
    description: `true when total is an estimate (more than ${EXACT_TOTAL_LIMIT.toLocaleString("en")} matches), false when it is a count`,
    examples: [false],
  }),
};

/** How deep any JSON input may nest: a request body, and a config, configSchema or defaults text. */
export const MAX_JSON_DEPTH = 64;

/**
 * The most procedure calls one tRPC request may batch (decision 0036). Each call counts against its rate
 * limit; the admin app's batch link splits at this size, and a larger batch is refused before any runs.
 */
export const TRPC_MAX_BATCH_SIZE = 20;
