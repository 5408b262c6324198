import { auth } from "@licensing/core";
import { authedProcedure, router } from "../trpc.ts";

export const authRouter = router({
  me: authedProcedure.query(({ ctx }) => auth.describeActor(ctx.actor)),
});
