import type { AppRouter } from "@licensing/api";
import { TRPC_MAX_BATCH_SIZE } from "@licensing/contracts";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext, createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import superjson from "superjson";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // An answer from the server (403, 404, a validation error) will not change on a retry.
      retry: (failures, error) => !(error instanceof TRPCClientError && error.data) && failures < 2,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({
  // The server refuses a larger batch (each call counts against the rate limit; decision 0036).
  links: [httpBatchLink({ url: "/trpc", transformer: superjson, maxItems: TRPC_MAX_BATCH_SIZE })],
});

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

/** For loaders and route guards, outside React. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
