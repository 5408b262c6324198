import { describe, expect, it } from "vitest";
import { listedFeatures } from "./features.ts";

const withFeatures = (features: unknown, extra: object = {}) => ({
  type: "object",
  properties: { features },
  ...extra,
});

describe("listedFeatures", () => {
  it("reads the items' enum, const, and anyOf/oneOf of those", () => {
    expect(listedFeatures(withFeatures({ type: "array", items: { enum: ["export", "sync"] } }))).toEqual([
      "export",
      "sync",
    ]);
    expect(
      listedFeatures(
        withFeatures({
          items: { anyOf: [{ const: "a" }, { enum: ["b", "c"] }, { oneOf: [{ const: "a" }] }] },
        }),
      ),
    ).toEqual(["a", "b", "c"]);
  });

  it("follows local $refs, to the property and to its items", () => {
    const schema = {
      properties: { features: { $ref: "#/$defs/features" } },
      $defs: {
        features: { type: "array", items: { $ref: "#/$defs/feature" } },
        feature: { type: "string", enum: ["export", "sync"] },
      },
    };
    expect(listedFeatures(schema)).toEqual(["export", "sync"]);
  });

  it("is null where the schema lists no names", () => {
    for (const schema of [
      {},
      true,
      withFeatures({ type: "array", items: { type: "string" } }),
      withFeatures({ type: "array" }),
      withFeatures({ items: { enum: ["a", 1] } }),
      withFeatures({ items: { anyOf: [{ const: "a" }, { type: "string" }] } }),
      withFeatures({ items: { enum: [] } }),
      withFeatures({ items: { $ref: "https://example.com/features.json" } }),
      // A reference that loops.
      { properties: { features: { $ref: "#/$defs/a" } }, $defs: { a: { $ref: "#/$defs/a" } } },
    ]) {
      expect(listedFeatures(schema), JSON.stringify(schema)).toBeNull();
    }
  });
});
