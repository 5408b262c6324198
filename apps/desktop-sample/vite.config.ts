import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { CONTENT_SECURITY_POLICY } from "./src/main/window-security.ts";

/** Writes the app's CSP into index.html, so the page carries it whatever serves it (file:// in Electron). */
const contentSecurityPolicy = (): Plugin => ({
  name: "desktop-sample-csp",
  transformIndexHtml: () => [
    {
      tag: "meta",
      attrs: { "http-equiv": "Content-Security-Policy", content: CONTENT_SECURITY_POLICY },
      injectTo: "head-prepend",
    },
  ],
});

export default defineConfig({
  root: fileURLToPath(new URL("src/renderer", import.meta.url)),
  // Electron loads the page from a file: every asset URL must be relative.
  base: "./",
  plugins: [react(), contentSecurityPolicy()],
  build: { outDir: "../../dist/renderer", emptyOutDir: true, target: "chrome140" },
});
