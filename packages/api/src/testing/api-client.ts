import type { ErrorResponse } from "@licensing/contracts";
import type { z } from "zod";
import { operations } from "../catalogue.ts";
import {
  isOperation,
  type AnyOperation,
  type Operation,
  type OperationTree,
} from "../operation/operation.ts";
import type { ApiResponse, TestClient } from "./http-client.ts";

type Headers = { headers?: Record<string, string> };
type ParamsPart<P> = P extends z.ZodObject ? { params: z.input<P> } : { params?: never };
type QueryPart<Q> = Q extends z.ZodObject ? { query?: z.input<Q> } : { query?: never };
type BodyPart<B> =
  B extends z.ZodOptional<z.ZodObject>
    ? { body?: z.input<B> }
    : B extends z.ZodObject
      ? { body: z.input<B> }
      : { body?: never };

/** What a test sends to an operation: its path parameters, query, body and extra headers, as typed. */
export type RequestOf<O> =
  O extends Operation<infer _M, infer _A, infer P, infer Q, infer B, infer _R, infer _S, infer _RO>
    ? ParamsPart<P> & QueryPart<Q> & BodyPart<B> & Headers
    : never;

/** What a successful call answers: the response schema's output, a streamed file's text, or nothing. */
export type ResultOf<O> =
  O extends Operation<infer _M, infer _A, infer _P, infer _Q, infer _B, infer R, infer S, infer _RO>
    ? S extends true
      ? string
      : R extends z.ZodType
        ? z.output<R>
        : undefined
    : never;

/** The body a test sends to an operation, e.g. `BodyOf<typeof operations.licenses.issue>`. */
export type BodyOf<O> = Exclude<RequestOf<O> extends { body?: infer B } ? B : never, undefined>;

type Call<O> =
  object extends RequestOf<O>
    ? (request?: RequestOf<O>) => Promise<ApiResponse<ResultOf<O>>>
    : (request: RequestOf<O>) => Promise<ApiResponse<ResultOf<O>>>;

/** The catalogue as typed calls over HTTP: `api.licenses.issue({ body })` answers the declared type. */
export type ApiClient<T> = {
  [K in keyof T]: T[K] extends AnyOperation ? Call<T[K]> : ApiClient<T[K]>;
};

type AnyRequest = {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
};

function pathOf(op: AnyOperation, request: AnyRequest) {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`${op.path}: the path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined && value !== null) query.append(name, String(value));
  }
  const search = query.size > 0 ? `?${query}` : "";
  return `/api/v1${path}${search}`;
}

function callsOf(client: TestClient, tree: OperationTree): unknown {
  return Object.fromEntries(
    Object.entries(tree).map(([key, node]) => [
      key,
      isOperation(node)
        ? (request: AnyRequest = {}) =>
            client.request(node.method.toUpperCase(), pathOf(node, request), request.body, request.headers, {
              // A download answers JSON as an attachment, a stream its text.
              parseAs: node.stream ? "text" : node.attachment ? "json" : "auto",
            })
        : callsOf(client, node),
    ]),
  );
}

/** Typed calls for every operation of the catalogue, sent by `client` (its cookie, its headers). */
export const apiClient = (client: TestClient) => callsOf(client, operations) as ApiClient<typeof operations>;

export type { ErrorResponse };
