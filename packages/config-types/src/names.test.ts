import { describe, expect, it } from "vitest";
import { configFileName, configTypeName, featureTypeName } from "./names.ts";

describe("names", () => {
  it("names a product's config type, its feature union and its file", () => {
    expect(configTypeName("EDITOR")).toBe("EditorConfig");
    expect(configTypeName("pro-desktop.v2")).toBe("ProDesktopV2Config");
    expect(configTypeName("3D_cad")).toBe("Product3dCadConfig");
    expect(featureTypeName("EditorConfig")).toBe("EditorFeature");
    expect(featureTypeName("Entitlements")).toBe("EntitlementsFeature");
    expect(configFileName("PRO-Desktop.v2")).toBe("pro-desktop-v2-config.ts");
  });
});
