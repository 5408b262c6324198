import { router } from "./trpc.ts";
import { authRouter } from "./routers/auth.ts";
import { operatorRouter } from "./routers/operator.ts";

export const appRouter = router({
  auth: authRouter,
  operator: operatorRouter,
});

export type AppRouter = typeof appRouter;
