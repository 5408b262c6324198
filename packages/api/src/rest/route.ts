import type { ErrorCode } from "@licensing/contracts";
import { fail, findUnstorable, type Actor, type Deps, type UserActor } from "@licensing/core";
import type { Request, RequestHandler, Response, Router } from "express";
import type { z } from "zod";
import { type ZodType } from "zod";
import { describeZodError } from "../errors.ts";
import { resolveActor } from "../http/actor.ts";
import type { CookieSettings } from "../http/session-cookie.ts";

/**
 * Who may call: `public` needs nobody, `authenticated` a session or a bearer token, `session` a
 * signed-in person (cookie) only. Roles and scopes are core's policy, not the route's.
 */
export type RouteAuth = "public" | "authenticated" | "session";
type ActorFor<A extends RouteAuth> = A extends "public"
  ? Actor | null
  : A extends "session"
    ? UserActor
    : Actor;
type Parsed<S> = S extends ZodType ? z.output<S> : undefined;
type Result<S> = S extends ZodType ? z.input<S> : void;

export interface RouteContext<A extends RouteAuth, B, Q, P> {
  deps: Deps;
  actor: ActorFor<A>;
  body: Parsed<B>;
  query: Parsed<Q>;
  params: Parsed<P>;
  req: Request;
  res: Response;
  cookies: CookieSettings;
}

export interface Route<
  A extends RouteAuth = RouteAuth,
  B extends ZodType | undefined = ZodType | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  R extends ZodType | undefined = ZodType | undefined,
> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Path below /api/v1 in OpenAPI form, e.g. `/panel/auth/invite/{token}`. */
  path: string;
  summary: string;
  tags: string[];
  auth: A;
  body?: B;
  query?: Q;
  params?: P;
  /** Response body schema; absent means 204 No Content. */
  response?: R;
  /** Success status when there is a body (default 200). */
  status?: 200 | 201;
  /** Non-JSON success body (e.g. a download): documented under this media type, sent as the handler sends it. */
  produces?: string;
  /** Error codes a caller should expect, for the documentation. */
  errors?: ErrorCode[];
  handler(ctx: RouteContext<A, B, Q, P>): Promise<Result<R>>;
}

/** Declares a route with its types inferred from its schemas. */
export const route = <
  A extends RouteAuth,
  B extends ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  R extends ZodType | undefined = undefined,
>(
  definition: Route<A, B, Q, P, R>,
) => definition as unknown as Route;

export interface MountOptions {
  deps: Deps;
  cookies: CookieSettings;
  /** Parse every response with its schema (tests), so the documented shapes are the real ones. */
  validateResponses: boolean;
}

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

function parsePart<S extends ZodType | undefined>(schema: S, value: unknown, location: string) {
  if (!schema) return undefined;
  // Before the schema and before any SQL: text PostgreSQL would refuse, or a hostile nesting.
  const unstorable = findUnstorable(value, location);
  if (unstorable) fail("request.invalid", `${unstorable.path}: ${unstorable.problem}`);
  const result = schema.safeParse(value ?? (location === "body" ? undefined : {}));
  if (!result.success) fail("request.invalid", describeZodError(result.error, location));
  return result.data;
}

export function mountRoutes(router: Router, routes: Route[], options: MountOptions) {
  for (const definition of routes) {
    const handler: RequestHandler = async (req, res) => {
      const actor =
        definition.auth === "public" ? null : await resolveActor(options.deps, req, res, options.cookies);
      if (definition.auth !== "public" && !actor)
        fail("auth.unauthenticated", "Sign in or send a personal access token");
      if (definition.auth === "session" && actor?.kind !== "user") {
        fail("auth.session_required", "This operation needs a signed-in session, not an access token");
      }
      const result = await definition.handler({
        deps: options.deps,
        actor,
        body: parsePart(definition.body, req.body, "body"),
        query: parsePart(definition.query, req.query, "query"),
        params: parsePart(definition.params, req.params, "path"),
        req,
        res,
        cookies: options.cookies,
      } as never);
      if (res.headersSent) return;
      if (!definition.response) {
        res.status(204).end();
        return;
      }
      const body = options.validateResponses ? definition.response.parse(result) : result;
      res.status(definition.status ?? 200).json(body);
    };
    router[definition.method](expressPath(definition.path), handler);
  }
}
