import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const read = (path: string) => readFileSync(join(repo, path), "utf8");
const manifests = [
  "package.json",
  ...["apps", "packages"].flatMap((dir) =>
    readdirSync(join(repo, dir)).map((name) => `${dir}/${name}/package.json`),
  ),
];

describe("what an adopter's review reads first", () => {
  it("LICENSE is the Apache License 2.0, and the SDK ships the same text", () => {
    expect(read("LICENSE")).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
    expect(read("LICENSE")).toContain("END OF TERMS AND CONDITIONS");
    expect(read("packages/client/LICENSE")).toBe(read("LICENSE"));
  });

  it.each(manifests)("%s: Apache-2.0, and the Node it needs", (path) => {
    const manifest = JSON.parse(read(path));
    expect(manifest.license).toBe("Apache-2.0");
    // Electron 45 and electron-builder 26 need Node 22.12 to install, run and package the desktop sample;
    // everything else, the server and the SDK first, runs on 20.19.
    expect(manifest.engines?.node).toBe(path.startsWith("apps/desktop-sample/") ? ">=22.12" : ">=20.19");
  });
});
