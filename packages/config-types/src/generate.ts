import type { compile } from "json-schema-to-typescript";
import { listedFeatures } from "./features.ts";
import { featureTypeName, isTypeName } from "./names.ts";

type Schema = Parameters<typeof compile>[0];

export interface ConfigTypesOptions {
  /** The config's type name, e.g. `EditorConfig` (`configTypeName(productCode)`). */
  typeName: string;
  /** Where the schema came from, for the file's header: `EDITOR, template version 3`. */
  source: string;
}

export interface ConfigTypes {
  typeName: string;
  /** The union of feature names, when the schema lists them. */
  featureTypeName: string | null;
  /** The TypeScript source: the config's interface (and the types it refers to), then the feature union. */
  source: string;
}

/** A schema the generator cannot turn into types; its message says why. */
export class ConfigTypesError extends Error {
  override name = "ConfigTypesError";
}

/** Keywords whose values are data, not schemas: a `$ref` key there is no reference. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);

/** The first `$ref` that leaves the document (a URL or a file), with its JSON pointer. */
function externalReference(node: unknown, at = ""): { ref: string; at: string } | null {
  if (typeof node !== "object" || node === null) return null;
  if (!Array.isArray(node) && typeof (node as { $ref?: unknown }).$ref === "string") {
    const ref = (node as { $ref: string }).$ref;
    if (!ref.startsWith("#")) return { ref, at };
  }
  for (const [key, value] of Object.entries(node)) {
    if (!Array.isArray(node) && DATA_KEYWORDS.has(key)) continue;
    const found = externalReference(value, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    if (found) return found;
  }
  return null;
}

/**
 * The TypeScript types of a license's config from its JSON Schema (decision 0043), with
 * json-schema-to-typescript. An object without `additionalProperties` gets no index signature, so a
 * misspelled path fails to compile; only local `$ref`s are followed (nothing is read or fetched).
 */
export async function generateConfigTypes(
  schema: unknown,
  options: ConfigTypesOptions,
): Promise<ConfigTypes> {
  const { typeName } = options;
  if (!isTypeName(typeName)) throw new ConfigTypesError(`${typeName} cannot name a TypeScript type`);
  // The boolean schema `true` accepts any config, as `{}` does.
  if (schema === true) schema = {};
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new ConfigTypesError("The config schema must be a JSON Schema object (or true)");
  }
  const outside = externalReference(schema);
  if (outside) {
    throw new ConfigTypesError(
      `$ref ${outside.ref} at ${outside.at || "/"} points outside the schema: only references inside it (#/…) are followed`,
    );
  }
  // Loaded on the first call: the generator brings prettier, which a server that never generates
  // should not load at start.
  const generator = await import("json-schema-to-typescript");
  let body: string;
  try {
    // The root's title would name the interface: the name asked for wins.
    body = await generator.compile({ ...(schema as Schema), title: typeName }, typeName, {
      bannerComment: "",
      additionalProperties: false,
      unknownAny: true,
      declareExternallyReferenced: true,
      $refOptions: { resolve: { external: false } },
    });
  } catch (error) {
    throw new ConfigTypesError(
      `The config schema cannot be turned into types: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const features = listedFeatures(schema);
  const featureName = features ? featureTypeName(typeName) : null;
  const header = [
    "/**",
    ` * A license's config (${options.source}), generated from its configSchema by licensing-codegen:`,
    ` * do not edit, run it again when the schema changes. Use: \`new LicenseClient<${typeName}>(options)\`.`,
    " */",
  ].join("\n");
  const featureUnion = featureName
    ? `\n/** The feature names the schema lists (\`hasFeature\` takes these). */\nexport type ${featureName} = ${features!
        .map((name) => JSON.stringify(name))
        .join(" | ")};\n`
    : "";
  return { typeName, featureTypeName: featureName, source: `${header}\n${body.trimEnd()}\n${featureUnion}` };
}
