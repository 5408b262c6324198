import { z } from "zod";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const flag = z
  .string()
  .transform((v) => (v === "true" ? true : v === "false" ? false : /^\d+$/.test(v) ? Number(v) : v))
  .optional();

/** The environment, exactly as the README lists it; read once, here and nowhere else. */
export const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATABASE_READ_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    DATABASE_READ_MAX_LAG_SECONDS: positiveInt(5),
    DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    HTTP_KEEP_ALIVE_SECONDS: z.coerce.number().int().min(1).max(3600).default(65),
    DATA_DIR: z.string().min(1).default("./.data"),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    LICENSING_MASTER_KEY: z
      .string()
      .refine(
        (v) => Buffer.from(v, "base64").length === 32,
        "must be 32 bytes, base64-encoded (openssl rand -base64 32)",
      )
      .optional(),
    LICENSING_ALLOW_GENERATED_MASTER_KEY: z
      .enum(["true", "false"], "must be true or false")
      .default("false")
      .transform((v) => v === "true"),
    LICENSING_MAX_OFFLINE_DAYS: positiveInt(30),
    LICENSING_DEFAULT_TRIAL_DAYS: positiveInt(14),
    LICENSING_HEARTBEAT_INTERVAL_SECONDS: positiveInt(900),
    RATE_LIMIT_PANEL: positiveInt(300),
    RATE_LIMIT_AUTH: positiveInt(20),
    RATE_LIMIT_CLIENT: positiveInt(100),
    WEBHOOK_POLL_INTERVAL_SECONDS: positiveInt(15),
    SWEEP_INTERVAL_SECONDS: positiveInt(60),
    ANALYTICS_INTERVAL_SECONDS: positiveInt(600),
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).optional(),
    WEBHOOK_ALLOW_PRIVATE: z
      .enum(["true", "false"], "must be true or false")
      .default("false")
      .transform((v) => v === "true"),
    CLIENT_SIGNATURE_MIN_VERSION: z.enum(["v1", "v2"]).default("v1"),
    HEARTBEAT_RETENTION_DAYS: positiveInt(400),
    SESSION_MAX_AGE_DAYS: positiveInt(30),
    TRUST_PROXY: flag,
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    BOOTSTRAP_OPERATOR_EMAIL: z.email().optional(),
    BOOTSTRAP_OPERATOR_PASSWORD: z.string().min(8, "must be at least 8 characters").optional(),
    METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  })
  .refine((env) => !env.DATABASE_READ_URL || env.DATABASE_URL, {
    message: "a read replica needs the primary's DATABASE_URL (the embedded database has none)",
    path: ["DATABASE_READ_URL"],
  })
  .refine((env) => !env.BOOTSTRAP_OPERATOR_EMAIL === !env.BOOTSTRAP_OPERATOR_PASSWORD, {
    message: "set both BOOTSTRAP_OPERATOR_EMAIL and BOOTSTRAP_OPERATOR_PASSWORD, or neither",
    path: ["BOOTSTRAP_OPERATOR_PASSWORD"],
  });

export type Env = z.infer<typeof EnvSchema>;

/**
 * How long a SIGTERM keeps serving with /readyz at 503 before the listener closes: SHUTDOWN_DRAIN_SECONDS,
 * else 5 s on PostgreSQL (where several instances behind a load balancer are possible) and 0 on the embedded
 * database (one instance, nobody to drain towards).
 */
export const shutdownDrainSeconds = (env: Env) => env.SHUTDOWN_DRAIN_SECONDS ?? (env.DATABASE_URL ? 5 : 0);

export class EnvError extends Error {}

/** Parses the environment; empty strings count as unset. A bad value names its variable. */
export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = EnvSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}
