export { AppError, fail } from "./errors.ts";
export { createManualClock, systemClock, DAY, HOUR, MINUTE, type Clock, type ManualClock } from "./clock.ts";
export { createDeps, type CoreConfig, type Deps, type DepsOptions, type RequestInfo } from "./deps.ts";
export { createSecretBox, type SecretBox } from "./crypto/secret-box.ts";
export { createMailer, type Mail, type Mailer } from "./mail/mailer.ts";
export { recordAudit } from "./audit/record.ts";
export type { Actor, TokenActor, UserActor } from "./auth/actor.ts";
export { resolveApiToken, API_TOKEN_PREFIX } from "./auth/api-token-actor.ts";
export { resolveSession, closeSession, SESSION_TTL_MS } from "./auth/sessions.ts";
export { bootstrapOperator } from "./operators/bootstrap.ts";

export * as auth from "./auth/index.ts";
export * as operators from "./operators/index.ts";
export { checkDatabase } from "./health.ts";
