export { createApp, restRoutes, type AppOptions } from "./app.ts";
export { requestLogMixin } from "./http/logging.ts";
export { answerClientErrors } from "./http/client-error.ts";
export { createLogger, scrubSecrets, type LoggerSettings } from "./http/log-redaction.ts";
export type { RateLimits } from "./rest/rate-limit.ts";
export type { AppRouter } from "./trpc/app-router.ts";
