/**
 * The type name for a product's config: `EDITOR` → `EditorConfig`, `pro-desktop.v2` → `ProDesktopV2Config`;
 * a code that starts with a digit gets `Product` in front (`3D-CAD` → `Product3dCadConfig`).
 */
export function configTypeName(productCode: string): string {
  const words = productCode.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const pascal = words.map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase()).join("");
  return `${/^[0-9]/.test(pascal) || pascal === "" ? "Product" : ""}${pascal}Config`;
}

/** The feature union's name beside a config type: `EditorConfig` → `EditorFeature`. */
export const featureTypeName = (typeName: string) =>
  typeName.endsWith("Config") ? `${typeName.slice(0, -"Config".length)}Feature` : `${typeName}Feature`;

/** The file a product's types are downloaded as: `EDITOR` → `editor-config.ts`. */
export const configFileName = (productCode: string) =>
  `${productCode.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-config.ts`;

/** Whether `name` can name a TypeScript type. */
export const isTypeName = (name: string) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
