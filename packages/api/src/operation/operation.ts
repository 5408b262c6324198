import type { Readable } from "node:stream";
import type { ErrorCode, EventType } from "@licensing/contracts";
import type { Actor, Deps, UserActor } from "@licensing/core";
import type { z } from "zod";
import type { CallRequest } from "./call-request.ts";

/**
 * Who may call: `public` needs nobody, `authenticated` a session or a bearer token, `session` a
 * signed-in person (cookie) only. Roles and scopes are core's policy, not the operation's.
 */
export type Auth = "public" | "authenticated" | "session";
export type Method = "get" | "post" | "put" | "patch" | "delete";
export type ActorFor<A extends Auth> = A extends "public"
  ? Actor | null
  : A extends "session"
    ? UserActor
    : Actor;

/** A body is an object, or an optional one (`POST …/revoke` may come without a body). */
export type BodySchema = z.ZodObject | z.ZodOptional<z.ZodObject>;
type Maybe<S> = S | undefined;

type Flatten<T> = { [K in keyof T]: T[K] } & {};
type PartOut<S> = S extends z.ZodType ? z.output<S> : unknown;
type PartIn<S> = S extends z.ZodType ? z.input<S> : unknown;
type BodyPart<B, io extends "in" | "out"> =
  B extends z.ZodOptional<infer Inner extends z.ZodObject>
    ? Partial<io extends "in" ? z.input<Inner> : z.output<Inner>>
    : io extends "in"
      ? PartIn<B>
      : PartOut<B>;

/**
 * The one input of an operation: its path parameters, query and body merged into one object (the tRPC
 * input, and what the handler gets on both transports).
 */
export type InputOf<P, Q, B> = Flatten<PartOut<P> & PartOut<Q> & BodyPart<B, "out">>;
/** What a caller sends as that input (defaults not applied yet). */
export type RawInputOf<P, Q, B> = Flatten<PartIn<P> & PartIn<Q> & BodyPart<B, "in">>;

/** What a handler returns for a response schema (its input side: dates before serialisation). */
export type HandlerResult<R> = R extends z.ZodType ? z.input<R> : void;

/** A file produced as it is sent (REST only): the audit export. */
export interface StreamedFile {
  contentType: string;
  fileName: string;
  body: Readable;
}

export interface Call<A extends Auth, P, Q, B> {
  deps: Deps;
  actor: ActorFor<A>;
  input: InputOf<P, Q, B>;
  request: CallRequest;
}

/**
 * One panel or client operation, declared once: the Express route, the OpenAPI operation and (unless
 * `restOnly`) the tRPC procedure are all built from it (docs/decisions/0039).
 */
export interface Operation<
  M extends Method = Method,
  A extends Auth = Auth,
  P extends Maybe<z.ZodObject> = Maybe<z.ZodObject>,
  Q extends Maybe<z.ZodObject> = Maybe<z.ZodObject>,
  B extends Maybe<BodySchema> = Maybe<BodySchema>,
  R extends Maybe<z.ZodType> = Maybe<z.ZodType>,
  S extends boolean = boolean,
  RO extends string | undefined = string | undefined,
> {
  method: M;
  /** Path below /api/v1 in OpenAPI form, e.g. `/panel/auth/invite/{token}`. */
  path: string;
  /** One line: what the operation does (the reference's list). */
  summary: string;
  /**
   * The reference's text (Markdown): what the operation does, who may call it (roles: core's policy, in
   * words), and what it changes. The access, the events and the idempotency are added from the fields.
   */
  description: string;
  tags: readonly string[];
  auth: A;
  /**
   * A `public` client operation whose handler checks the request signature (X-Service-Timestamp and
   * X-Service-Signature, HMAC keyed with the license key): declared so the reference shows the scheme.
   */
  signed?: boolean;
  /** The webhook events a successful call publishes (in its transaction, delivered after commit). */
  events?: readonly EventType[];
  params?: P;
  query?: Q;
  body?: B;
  /** Response body schema; absent means 204 No Content (REST) and `void` (tRPC). */
  response?: R;
  /** Success status when there is a body (default 200). */
  status?: 200 | 201;
  /** Error codes a caller should expect, for the documentation. */
  errors?: readonly ErrorCode[];
  /** Honours `Idempotency-Key` (the same header on REST and on the tRPC HTTP request). */
  idempotent?: boolean;
  /** REST sends the result as a file attachment of this type and name; tRPC returns it as data. */
  attachment?: { contentType: string; fileName(result: HandlerResult<R>): string };
  /** The handler returns a `StreamedFile`, piped to the response (REST only) as `produces` says. */
  stream?: S;
  /** Media type of a streamed success body, for the documentation. */
  produces?: string;
  /** Served on REST only, and why (the client API, a streamed file). */
  restOnly?: RO;
  /**
   * `replica`: a read-only operation whose queries (`deps.reads`) may run on the read replica
   * (DATABASE_READ_URL) unless the caller wrote lately (docs/decisions/0056). The one list of them.
   */
  reads?: "replica";
  handler(call: Call<A, P, Q, B>): Promise<S extends true ? StreamedFile : HandlerResult<R>>;
}

/** An operation whatever its types, as the transports walk them. */
export interface AnyOperation {
  method: Method;
  path: string;
  summary: string;
  description: string;
  tags: readonly string[];
  auth: Auth;
  signed?: boolean | undefined;
  events?: readonly EventType[] | undefined;
  params?: z.ZodObject | undefined;
  query?: z.ZodObject | undefined;
  body?: BodySchema | undefined;
  response?: z.ZodType | undefined;
  status?: 200 | 201 | undefined;
  errors?: readonly ErrorCode[] | undefined;
  idempotent?: boolean | undefined;
  attachment?: { contentType: string; fileName(result: never): string } | undefined;
  stream?: boolean | undefined;
  produces?: string | undefined;
  restOnly?: string | undefined;
  reads?: "replica" | undefined;
  handler(call: never): Promise<unknown>;
}

/** Declares an operation with its types inferred from its schemas. */
export const operation = <
  M extends Method,
  A extends Auth,
  P extends Maybe<z.ZodObject> = undefined,
  Q extends Maybe<z.ZodObject> = undefined,
  B extends Maybe<BodySchema> = undefined,
  R extends Maybe<z.ZodType> = undefined,
  S extends boolean = false,
  RO extends string | undefined = undefined,
>(
  definition: Operation<M, A, P, Q, B, R, S, RO>,
) => definition;

/** Operations by name, nested by domain: `{ licenses: { issue, … }, auth: { twoFactor: { … } } }`. */
export interface OperationTree {
  [name: string]: AnyOperation | OperationTree;
}

export const isOperation = (node: AnyOperation | OperationTree): node is AnyOperation =>
  typeof node.handler === "function" && typeof node.path === "string";

/** The operations of a tree in declaration order, with their dotted names (`auth.twoFactor.enable`). */
export function flattenOperations(tree: OperationTree, prefix = ""): { name: string; op: AnyOperation }[] {
  return Object.entries(tree).flatMap(([key, node]) =>
    isOperation(node) ? [{ name: `${prefix}${key}`, op: node }] : flattenOperations(node, `${prefix}${key}.`),
  );
}
