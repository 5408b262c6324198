type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Follows a local `$ref` (`#/$defs/Feature`) inside `root`; remote references are not followed. */
function resolve(root: Schema, node: unknown, seen = new Set<string>()): Schema | null {
  if (!isSchema(node)) return null;
  const ref = node.$ref;
  if (typeof ref !== "string") return node;
  if (!ref.startsWith("#") || seen.has(ref)) return null;
  seen.add(ref);
  const target = ref
    .slice(1)
    .split("/")
    .filter(Boolean)
    .map((part) => decodeURIComponent(part).replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((at, key) => (isSchema(at) ? at[key] : undefined), root);
  return resolve(root, target, seen);
}

/** The strings a schema allows when it lists them: `enum`, `const`, or `anyOf`/`oneOf` of those. */
function listedStrings(root: Schema, node: unknown): string[] | null {
  const schema = resolve(root, node);
  if (!schema) return null;
  if (Array.isArray(schema.enum)) {
    return schema.enum.every((v) => typeof v === "string") ? (schema.enum as string[]) : null;
  }
  if (typeof schema.const === "string") return [schema.const];
  const branches = schema.anyOf ?? schema.oneOf;
  if (!Array.isArray(branches) || branches.length === 0) return null;
  const lists = branches.map((branch) => listedStrings(root, branch));
  return lists.every((list) => list !== null) ? lists.flat() : null;
}

/**
 * The feature names a config schema lists: the items of `properties.features` when they are an `enum` of
 * strings (or `const`s, or `anyOf`/`oneOf` of those), following local `$ref`s; null when it lists none.
 */
export function listedFeatures(schema: unknown): string[] | null {
  if (!isSchema(schema)) return null;
  const properties = resolve(schema, schema.properties);
  const features = properties && resolve(schema, properties.features);
  if (!features) return null;
  const names = listedStrings(schema, features.items);
  return names && names.length > 0 ? [...new Set(names)] : null;
}
