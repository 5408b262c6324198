import * as z from "zod/mini";

/** A description for JSON Schema (what classic zod's `.meta({ description })` does), for the contracts' OpenAPI. */
export function described<T extends z.ZodMiniType>(schema: T, description: string): T {
  z.globalRegistry.add(schema as z.ZodMiniType, { description });
  return schema;
}
