// A module resolution hook: adds the `@licensing/source` condition, so `@licensing/client` resolves to its
// TypeScript sources (no build needed), as vitest and tsc are configured to do.
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, "@licensing/source"] });
}
