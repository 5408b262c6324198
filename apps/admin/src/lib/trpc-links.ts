import type { AppRouter } from "@licensing/api";
import { TRPC_MAX_BATCH_SIZE } from "@licensing/contracts";
import { httpBatchLink, httpLink, splitLink, type Operation, type TRPCLink } from "@trpc/client";
import superjson from "superjson";
import type { IdempotentContext } from "./idempotency.ts";

const keyOf = (op: Operation) => (op.context as Partial<IdempotentContext>).idempotencyKey;

/**
 * How the app's tRPC calls travel. A call with an Idempotency-Key (`useIdempotent`) goes alone with the
 * header: a key covers one call, and the server refuses a batch that carries one (decision 0039). Every
 * other call made in the same tick goes in one batch request, of at most the size the server accepts
 * (each call counts against the rate limit; decision 0036).
 */
export function trpcLinks({
  url,
  fetch,
}: {
  url: string;
  fetch?: typeof globalThis.fetch;
}): TRPCLink<AppRouter>[] {
  const http = { url, transformer: superjson, fetch };
  return [
    splitLink({
      condition: (op) => keyOf(op) !== undefined,
      true: httpLink({ ...http, headers: ({ op }) => ({ "idempotency-key": keyOf(op)! }) }),
      false: httpBatchLink({ ...http, maxItems: TRPC_MAX_BATCH_SIZE }),
    }),
  ];
}
