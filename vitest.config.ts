import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { SKIP_LINE } from "./packages/api/src/testing/tools/need-tool.ts";

// Workspace packages that publish a build (packages/client) point the `@licensing/source` condition at
// their TypeScript, so tests run on a fresh clone without building first.
const conditions = ["@licensing/source", ...defaultServerConditions];

// A suite skipped for want of a tool says so in one line (needTool); several files skipped for the same
// reason show that line once.
const skipLinesShown = new Set<string>();
const showOnce = (log: string) => {
  if (!log.startsWith(SKIP_LINE)) return true;
  if (skipLinesShown.has(log)) return false;
  skipLinesShown.add(log);
  return true;
};

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["{apps,packages}/*/src/**/*.test.ts", "apps/admin/e2e/**/*.test.ts", "scripts/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    onConsoleLog: showOnce,
  },
});
