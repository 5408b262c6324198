import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  splitLink,
  TRPCClientError,
  type TRPCClient,
} from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "../trpc/app-router.ts";
import type { TestClient } from "./http-client.ts";

export type TestTrpcClient = TRPCClient<AppRouter>;

/** Per-call extra headers: `mutate(input, { context: { headers: { "idempotency-key": "k" } } })`. */
export interface TestTrpcContext {
  headers?: Record<string, string>;
  /** Send this call in a batch with the others made in the same tick (as the admin app does). */
  batch?: boolean;
}

/**
 * A typed tRPC client over real HTTP that shares `client`'s session cookie and headers, so a test
 * calls `client.trpc.licenses.issue.mutate({ … })` and reads the declared output type.
 */
export function trpcClient(client: TestClient): TestTrpcClient {
  const url = `${client.baseUrl}/trpc`;
  const fetchKeepingCookie: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    client.keepCookie(res.headers);
    return res;
  };
  const options = { url, transformer: superjson, fetch: fetchKeepingCookie };
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => (op.context as TestTrpcContext).batch === true,
        true: httpBatchLink({ ...options, headers: () => client.headersFor() }),
        false: httpLink({
          ...options,
          headers: ({ op }) => client.headersFor((op.context as TestTrpcContext).headers),
        }),
      }),
    ],
  });
}

/**
 * The tRPC error a call ends with: its `data` (`code`, `httpStatus`, the spec's `appCode`) and message.
 * Fails when the call succeeds.
 */
export async function trpcError(call: Promise<unknown>) {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected a tRPC error, got ${JSON.stringify(outcome.value)}`);
  if (!(outcome.error instanceof TRPCClientError)) throw outcome.error;
  const error = outcome.error as TRPCClientError<AppRouter>;
  return { data: error.data!, message: error.message };
}
