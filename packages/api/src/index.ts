export { createApp, type AppOptions } from "./app.ts";
export { operations, operationList, panelOperations } from "./catalogue.ts";
export { requestLogMixin } from "./http/logging.ts";
export { answerClientErrors } from "./http/client-error.ts";
export { createLogger, scrubSecrets, type LoggerSettings } from "./http/log-redaction.ts";
export type { RateLimits } from "./http/rate-limit.ts";
export {
  appRouter,
  createCaller,
  type AppRouter,
  type RouterInputs,
  type RouterOutputs,
} from "./trpc/app-router.ts";
export type { TrpcContext } from "./trpc/context.ts";
