import type { AppRouter } from "@licensing/api";
import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, TRPCClientError } from "@trpc/client";
import { createTRPCContext, createTRPCOptionsProxy } from "@trpc/tanstack-react-query";
import { trpcLinks } from "./trpc-links.ts";

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // An answer from the server (403, 404, a validation error) will not change on a retry.
      retry: (failures, error) => !(error instanceof TRPCClientError && error.data) && failures < 2,
    },
  },
});

export const trpcClient = createTRPCClient<AppRouter>({ links: trpcLinks({ url: "/trpc" }) });

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

/** For loaders and route guards, outside React. */
export const trpc = createTRPCOptionsProxy<AppRouter>({ client: trpcClient, queryClient });
export type Trpc = typeof trpc;
