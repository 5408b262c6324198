import {
  AppError,
  fail,
  findUnstorable,
  type Actor,
  type RequestInfo,
  type UserActor,
} from "@licensing/core";
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { errorKindMapping } from "../errors.ts";
import { resolveCaller } from "../http/actor.ts";
import { sessionIdFromCookieHeader } from "../http/session-cookie.ts";
import type { TrpcContext } from "./context.ts";

export type { TrpcContext } from "./context.ts";

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
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: errorKindMapping[cause.kind].trpc, message: cause.message, cause });
  }
  return result;
});

/** The REST edge's rule for tRPC: no NUL, no unpaired surrogate, no hostile nesting, before any SQL. */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const unstorable = findUnstorable(await getRawInput(), "input");
  if (unstorable) fail("request.invalid", `${unstorable.path}: ${unstorable.problem}`);
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** The audit log's view of the request. */
export const requestOf = (ctx: TrpcContext): RequestInfo => ({
  ip: ctx.ip,
  userAgent: ctx.headers.get("user-agent"),
});
export const sessionIdOf = (ctx: TrpcContext) => sessionIdFromCookieHeader(ctx.headers.get("cookie"));

/** Anyone; the procedure reads the request itself (sign-in, invitations, password reset). */
export const publicProcedure = t.procedure.use(appErrors).use(storableInput);

/** A session or a bearer token, as the REST routes' `authenticated`. */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor: Actor | null = await resolveCaller(
    ctx.deps,
    {
      authorization: ctx.headers.get("authorization") ?? undefined,
      sessionId: sessionIdOf(ctx),
      request: requestOf(ctx),
    },
    (sessionId) => ctx.setSessionCookie(sessionId),
  );
  if (!actor) fail("auth.unauthenticated", "Sign in or send a personal access token");
  return next({ ctx: { ...ctx, actor: actor as Actor } });
});

/** A signed-in person (the cookie), not an access token: as the REST routes' `session`. */
export const sessionProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.actor.kind !== "user") {
    fail("auth.session_required", "This operation needs a signed-in session, not an access token");
  }
  return next({ ctx: { ...ctx, actor: ctx.actor as UserActor } });
});
