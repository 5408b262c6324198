import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { styleNonce } from "./lib/csp.ts";
import { queryClient, trpc, trpcClient, TRPCProvider } from "./lib/trpc.ts";
import { router } from "./router.tsx";
import { cssVariablesResolver, theme } from "./theme.ts";

// Mantine's theme variables and responsive styles are <style> tags: they carry the page's CSP nonce.
const getStyleNonce = () => styleNonce;

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} getStyleNonce={getStyleNonce}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
          <RouterProvider router={router} context={{ queryClient, trpc }} />
        </TRPCProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
