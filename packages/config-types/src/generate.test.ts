import { describe, expect, it } from "vitest";
import { ConfigTypesError, generateConfigTypes } from "./generate.ts";

const options = { typeName: "EditorConfig", source: "EDITOR, template version 3" };

describe("generateConfigTypes", () => {
  it("writes the config's interface and the union of the feature names the schema lists", async () => {
    const types = await generateConfigTypes(
      {
        title: "Ignored: the name asked for wins",
        type: "object",
        properties: {
          features: { type: "array", items: { enum: ["export", "sync"] } },
          limits: {
            type: "object",
            properties: { maxSeats: { type: "integer", minimum: 1 }, "project.size": { type: "number" } },
            required: ["maxSeats"],
          },
          labels: { type: "object", additionalProperties: { type: "string" } },
          notes: {},
        },
        required: ["features"],
      },
      options,
    );
    expect(types).toEqual({
      typeName: "EditorConfig",
      featureTypeName: "EditorFeature",
      source: `/**
 * A license's config (EDITOR, template version 3), generated from its configSchema by licensing-codegen:
 * do not edit, run it again when the schema changes. Use: \`new LicenseClient<EditorConfig>(options)\`.
 */
export interface EditorConfig {
  features: ("export" | "sync")[];
  limits?: {
    maxSeats: number;
    "project.size"?: number;
  };
  labels?: {
    [k: string]: string;
  };
  notes?: unknown;
}

/** The feature names the schema lists (\`hasFeature\` takes these). */
export type EditorFeature = "export" | "sync";
`,
    });
  });

  it("writes no feature union where the schema lists no names, and an open interface for `true`", async () => {
    const open = await generateConfigTypes({ properties: { features: { type: "array" } } }, options);
    expect(open.featureTypeName).toBeNull();
    expect(open.source).not.toContain("EditorFeature");
    const anything = await generateConfigTypes(true, options);
    expect(anything.source).toContain("export interface EditorConfig {\n  [k: string]: unknown;\n}");
  });

  it("refuses a reference that leaves the schema, before anything reads it", async () => {
    for (const [schema, message] of [
      [{ $ref: "/etc/hostname" }, "$ref /etc/hostname at / points outside the schema"],
      [
        { properties: { a: { items: { $ref: "https://example.com/a.json#/x" } } } },
        "$ref https://example.com/a.json#/x at /properties/a/items points outside the schema",
      ],
    ] as const) {
      const error = await generateConfigTypes(schema, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigTypesError);
      expect((error as Error).message).toContain(message);
    }
    // A `$ref` key inside data is no reference.
    const data = await generateConfigTypes({ properties: { a: { const: { $ref: "elsewhere" } } } }, options);
    expect(data.source).toContain("export interface EditorConfig");
  });

  it("refuses what is no schema object, and a name that is no identifier", async () => {
    for (const schema of [false, null, [], "schema", 5]) {
      await expect(generateConfigTypes(schema, options), JSON.stringify(schema)).rejects.toThrow(
        ConfigTypesError,
      );
    }
    await expect(generateConfigTypes({}, { ...options, typeName: "Editor-Config" })).rejects.toThrow(
      "Editor-Config cannot name a TypeScript type",
    );
  });
});
