import { describe, expectTypeOf, it } from "vitest";
import { LicenseClient } from "../node/license-client.ts";
import type { ConfigPath, ConfigValue, FeatureOf } from "./config-types.ts";
import { LicenseClientCore } from "./license-client-core.ts";
import { memoryStorage } from "./storage.ts";

/**
 * Type tests: `expectTypeOf` and the `@ts-expect-error` lines are checked by `npm run typecheck` (a line
 * that compiles after all fails it). What `licensing-codegen` writes for a schema like the README's.
 */
interface EditorConfig {
  features: ("export" | "sync" | "cloud-backup")[];
  limits: {
    maxSeats: number;
    maxProjects?: number;
    "project.size"?: number;
  };
  tier?: "standard" | "pro";
  integrations?: { name: string; url?: string }[];
  extra?: { [k: string]: string };
  anything?: unknown;
}

const options = {
  serverUrl: "http://localhost:3000",
  licenseFilePath: "/tmp/none.lic",
  publicKey: "00".repeat(32),
  hwFingerprint: "machine-a",
};

describe("LicenseClient<Config>", () => {
  it("types getConfig by the dotted path, and null when absent", () => {
    const client = new LicenseClient<EditorConfig>(options);
    expectTypeOf(client.getConfig("limits.maxSeats")).toEqualTypeOf<number | null>();
    expectTypeOf(client.getConfig("limits.maxProjects")).toEqualTypeOf<number | null>();
    expectTypeOf(client.getConfig("limits.project.size")).toEqualTypeOf<number | null>();
    expectTypeOf(client.getConfig("tier")).toEqualTypeOf<"standard" | "pro" | null>();
    expectTypeOf(client.getConfig("limits")).toEqualTypeOf<EditorConfig["limits"] | null>();
    expectTypeOf(client.getConfig("features.0")).toEqualTypeOf<"export" | "sync" | "cloud-backup" | null>();
    expectTypeOf(client.getConfig("integrations.1.name")).toEqualTypeOf<string | null>();
    expectTypeOf(client.getConfig("extra.anyKey")).toEqualTypeOf<string | null>();
    expectTypeOf(client.getConfig("anything.below.it")).toEqualTypeOf<unknown>();

    // @ts-expect-error a misspelled path
    client.getConfig("limits.maxSeat");
    // @ts-expect-error a path below a number
    client.getConfig("limits.maxSeats.value");
    // @ts-expect-error a typed client does not take a caller's value type
    client.getConfig<string>("limits.maxSeats");
  });

  it("takes only the feature names the schema lists", () => {
    const client = new LicenseClient<EditorConfig>(options);
    expectTypeOf(client.hasFeature).parameter(0).toEqualTypeOf<"export" | "sync" | "cloud-backup">();
    client.hasFeature("cloud-backup");
    // @ts-expect-error a misspelled feature
    client.hasFeature("exprot");
  });

  it("is the same on the core entry", () => {
    const client = new LicenseClientCore<EditorConfig>({
      ...options,
      storage: memoryStorage({ license: "" }),
    });
    expectTypeOf(client.getConfig("limits.maxSeats")).toEqualTypeOf<number | null>();
    // @ts-expect-error a misspelled feature
    client.hasFeature("sink");
  });

  it("keeps untyped use as it was: any path, any feature, the caller's value type", () => {
    const client = new LicenseClient(options);
    expectTypeOf(client.getConfig("limits.maxSeats")).toEqualTypeOf<unknown>();
    expectTypeOf(client.getConfig<number>("limits.maxSeats")).toEqualTypeOf<number | null>();
    expectTypeOf(client.hasFeature).parameter(0).toEqualTypeOf<string>();
    const path: string = "limits.maxSeats";
    expectTypeOf(client.getConfig(path)).toEqualTypeOf<unknown>();
  });

  it("falls back to any string where the schema does not list the features", () => {
    expectTypeOf<FeatureOf<{ features: string[] }>>().toEqualTypeOf<string>();
    expectTypeOf<FeatureOf<{ limits: { maxSeats: number } }>>().toEqualTypeOf<string>();
    expectTypeOf<FeatureOf<{ features?: ("a" | "b")[] }>>().toEqualTypeOf<"a" | "b">();
  });

  it("ends paths of a recursive schema at ten levels rather than never", () => {
    interface Node {
      name: string;
      child?: Node;
    }
    expectTypeOf<"child.child.name">().toExtend<ConfigPath<Node>>();
    expectTypeOf<ConfigValue<Node, "child.child.name">>().toEqualTypeOf<string>();
  });
});
