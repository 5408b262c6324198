import { AppError, fail, type Actor, type Deps } from "@licensing/core";
import { initTRPC, TRPCError } from "@trpc/server";
import type { Request, Response } from "express";
import superjson from "superjson";
import { asAppError, errorKindMapping } from "../errors.ts";
import { resolveActor } from "../http/actor.ts";
import type { CookieSettings } from "../http/session-cookie.ts";

export interface TrpcContext {
  deps: Deps;
  req: Request;
  res: Response;
  cookies: CookieSettings;
}

const t = initTRPC.context<TrpcContext>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      message:
        error.code === "INTERNAL_SERVER_ERROR" && !(cause instanceof AppError)
          ? "An unexpected error occurred"
          : shape.message,
      data: {
        ...data,
        // The spec's machine code, the same one the REST body carries.
        appCode:
          cause instanceof AppError
            ? cause.code
            : shape.data.code === "BAD_REQUEST"
              ? "request.invalid"
              : null,
      },
    };
  },
});

/** Domain errors become tRPC errors through the same kind table the REST layer uses. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  const cause = result.ok ? undefined : asAppError(result.error.cause);
  if (cause) {
    throw new TRPCError({ code: errorKindMapping[cause.kind].trpc, message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrors);

export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor: Actor | null = await resolveActor(ctx.deps, ctx.req, ctx.res, ctx.cookies);
  if (!actor) fail("auth.unauthenticated", "Sign in or send a personal access token");
  return next({ ctx: { ...ctx, actor: actor as Actor } });
});
