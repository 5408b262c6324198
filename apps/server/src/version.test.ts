import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { VERSION } from "./server.ts";

describe("VERSION", () => {
  it("is the newest release of CHANGELOG.md, what the OpenAPI document and the upgrade notes name", () => {
    const changelog = readFileSync(new URL("../../../CHANGELOG.md", import.meta.url), "utf8");
    const newest = /^## \[(\d+\.\d+\.\d+)\]/m.exec(changelog)?.[1];
    expect(newest).toBe(VERSION);
  });
});
