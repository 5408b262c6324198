import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Workspace packages that publish a build (packages/client) point the `@licensing/source` condition at
// their TypeScript, so tests run on a fresh clone without building first.
const conditions = ["@licensing/source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["{apps,packages}/*/src/**/*.test.ts", "apps/admin/e2e/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
