import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { createCallerFactory, router } from "./trpc.ts";
import { authRouter } from "./routers/auth.ts";
import { operatorRouter } from "./routers/operator.ts";
import { templatesRouter } from "./routers/templates.ts";
import { licensesRouter } from "./routers/licenses.ts";
import { companiesRouter } from "./routers/companies.ts";
import { usersRouter } from "./routers/users.ts";
import { apiTokensRouter } from "./routers/api-tokens.ts";
import { auditRouter } from "./routers/audit.ts";
import { activationsRouter } from "./routers/activations.ts";
import { webhooksRouter } from "./routers/webhooks.ts";
import { analyticsRouter } from "./routers/analytics.ts";

export const appRouter = router({
  auth: authRouter,
  operator: operatorRouter,
  templates: templatesRouter,
  licenses: licensesRouter,
  companies: companiesRouter,
  users: usersRouter,
  apiTokens: apiTokensRouter,
  audit: auditRouter,
  activations: activationsRouter,
  webhooks: webhooksRouter,
  analytics: analyticsRouter,
});

export type AppRouter = typeof appRouter;
/** Input types of every procedure, e.g. `RouterInputs["licenses"]["issue"]`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Output types of every procedure, e.g. `RouterOutputs["licenses"]["search"]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** Calls procedures in-process with a `TrpcContext` (tests, tools): `createCaller(context).auth.me()`. */
export const createCaller = createCallerFactory(appRouter);
