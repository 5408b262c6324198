import { fail, type Actor } from "@licensing/core";
import type { TRPCMutationProcedure, TRPCQueryProcedure } from "@trpc/server";
import { z } from "zod";
import type { TrpcContext } from "../trpc/context.ts";
import { authedProcedure, publicProcedure, requestOf, sessionIdOf, sessionProcedure } from "../trpc/trpc.ts";
import type { CallRequest } from "./call-request.ts";
import { callOperation } from "./reads.ts";
import {
  isOperation,
  type AnyOperation,
  type Operation,
  type OperationTree,
  type RawInputOf,
} from "./operation.ts";

// The root's meta and error shape, as every procedure of this tRPC instance carries them.
type Sample = ReturnType<typeof publicProcedure.query<null>>;
type Def<I, O> = {
  input: I;
  output: O;
  meta: Sample["meta"];
  errorShape: Sample["_def"]["$types"]["errorShape"];
};

/** The tRPC input of an operation: none, optional when every field is, else required. */
type TrpcInput<I> = keyof I extends never ? void : object extends I ? I | void : I;
type TrpcOutput<R> = R extends z.ZodType ? z.output<R> : void;

type ProcedureOf<O> =
  O extends Operation<infer M, infer _A, infer P, infer Q, infer B, infer R, infer _S, infer _RO>
    ? M extends "get"
      ? TRPCQueryProcedure<Def<TrpcInput<RawInputOf<P, Q, B>>, TrpcOutput<R>>>
      : TRPCMutationProcedure<Def<TrpcInput<RawInputOf<P, Q, B>>, TrpcOutput<R>>>
    : never;

/** The procedures of a tree of operations, nested the same way; REST-only operations are left out. */
export type ProceduresOf<T> = {
  [K in keyof T as T[K] extends { restOnly: string } ? never : K]: T[K] extends AnyOperation
    ? ProcedureOf<T[K]>
    : ProceduresOf<T[K]>;
};

/** The transport-neutral view of a tRPC call. */
export function trpcCallRequest(ctx: TrpcContext): CallRequest {
  return {
    header: (name) => ctx.headers.get(name) ?? undefined,
    info: requestOf(ctx),
    requestId: ctx.requestId,
    idempotencyKey: ctx.headers.get("idempotency-key") ?? undefined,
    sessionId: sessionIdOf(ctx),
    setSessionCookie: ctx.setSessionCookie,
    signed: { method: "POST", path: "/trpc", body: Buffer.alloc(0) },
    setStatus: () => undefined,
  };
}

/**
 * One input object for the procedure: path parameters, query and body merged, as the REST side merges
 * them for the handler. When every field is optional the input may be left out.
 */
export function trpcInputOf(op: AnyOperation): z.ZodType | undefined {
  const body = op.body instanceof z.ZodOptional ? op.body.unwrap().partial() : op.body;
  const shape = { ...body?.shape, ...op.query?.shape, ...op.params?.shape };
  if (Object.keys(shape).length === 0) return undefined;
  const input = z.object(shape);
  return input.safeParse({}).success
    ? input.optional().transform((value) => value ?? input.parse({}))
    : input;
}

function procedureOf(op: AnyOperation) {
  const base =
    op.auth === "public" ? publicProcedure : op.auth === "session" ? sessionProcedure : authedProcedure;
  const input = trpcInputOf(op);
  // The builder's types follow each operation's schemas; here one function builds them all.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const builder = (input ? base.input(input) : base).output(op.response ?? z.void()) as any;
  const resolve = ({ ctx, input }: { ctx: TrpcContext & { actor?: unknown }; input: unknown }) => {
    const request = trpcCallRequest(ctx);
    if (op.idempotent && request.idempotencyKey !== undefined && (ctx.calls ?? 1) > 1) {
      fail("request.invalid", "Idempotency-Key covers one call: send this call alone, not in a batch");
    }
    return callOperation(op, {
      deps: ctx.deps,
      actor: (ctx.actor ?? null) as Actor | null,
      input: input ?? {},
      request,
    });
  };
  return op.method === "get" ? builder.query(resolve) : builder.mutation(resolve);
}

/** The tRPC procedures of every operation of the tree that is not REST-only, nested as the tree is. */
export function proceduresOf<T extends OperationTree>(tree: T): ProceduresOf<T> {
  const record: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(tree)) {
    if (!isOperation(node)) record[key] = proceduresOf(node);
    else if (!node.restOnly) record[key] = procedureOf(node);
  }
  return record as ProceduresOf<T>;
}
