import type { Tool } from "./catalogue.ts";

/** Starts every line that says a suite was skipped; vitest.config.ts shows each such line once per run. */
export const SKIP_LINE = "Skipped: ";

/** Whether the environment asks for `variable`'s tools to be there (`1` or `true`). */
export const isRequired = (variable: string, env: NodeJS.ProcessEnv = process.env) =>
  ["1", "true"].includes(env[variable] ?? "");

/**
 * What a suite that needs `tool` calls before it runs (`describe.skipIf(!needTool(…))`): the tool's path,
 * or null after one line saying what is skipped and how to enable it. When the tool's variable
 * (REQUIRE_BROWSER, REQUIRE_TOOLS) is set, a missing tool throws instead, so CI cannot pass by skipping.
 */
export function needTool(tool: Tool, suite: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const found = tool.find();
  if (found) return found;
  const notFound = `${tool.name} not found (looked at ${tool.lookedAt})`;
  if (isRequired(tool.requiredBy, env))
    throw new Error(`${tool.requiredBy}=1: ${notFound}, needed by ${suite}. To get it: ${tool.enable}.`);
  console.warn(
    `${SKIP_LINE}${suite}: ${notFound}. To enable: ${tool.enable}. ${tool.requiredBy}=1 makes this a failure.`,
  );
  return null;
}
