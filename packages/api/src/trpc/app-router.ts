import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import { panelOperations } from "../catalogue.ts";
import { proceduresOf } from "../operation/trpc.ts";
import { createCallerFactory, router } from "./trpc.ts";

/** The admin app's API: every panel operation that is not REST-only, named as in the catalogue. */
export const appRouter = router(proceduresOf(panelOperations));

export type AppRouter = typeof appRouter;
/** Input types of every procedure, e.g. `RouterInputs["licenses"]["issue"]`. */
export type RouterInputs = inferRouterInputs<AppRouter>;
/** Output types of every procedure, e.g. `RouterOutputs["licenses"]["search"]`. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;

/** Calls procedures in-process with a `TrpcContext` (tests, tools): `createCaller(context).auth.me()`. */
export const createCaller = createCallerFactory(appRouter);
