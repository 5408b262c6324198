import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

const server = process.env.LICENSING_DEV_SERVER ?? "http://localhost:3000";

// In development the API stays on its own server; the proxy presents the server's origin so the
// CSRF origin check (same origin only) accepts the session cookie's state-changing calls.
const proxied: ProxyOptions = {
  target: server,
  changeOrigin: true,
  configure: (proxy) => proxy.on("proxyReq", (req) => req.setHeader("origin", new URL(server).origin)),
};

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { "/api": proxied, "/trpc": proxied, "/healthz": proxied },
  },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  // The server replaces this with a fresh nonce on every page load (CSP_NONCE_PLACEHOLDER in
  // packages/api/src/http/security-headers.ts); Mantine's <style> tags carry it (decision 0038).
  html: { cspNonce: "__CSP_NONCE__" },
});
