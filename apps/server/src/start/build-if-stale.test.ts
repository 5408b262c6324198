import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript (npm start runs it before anything is compiled); no declarations
import { buildIfStale, buildIfStaleInChild } from "../../../../scripts/build/build-if-stale.mjs";

const root = mkdtempSync(join(tmpdir(), "licensing-build-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};

// A step that concatenates its sources, standing in for esbuild (the server) or Vite (the admin app).
let builds = 0;
const step = {
  name: "concat",
  inputs: ["src", "config.json"],
  ignore: (file: string) => file.endsWith(".test.ts"),
  outputs: ["out/bundle.txt", "out/sizes.txt"],
  async build() {
    builds++;
    const sources = ["src/a.ts", "src/b.ts"].map((f) => readFileSync(join(root, f), "utf8"));
    write("out/bundle.txt", sources.join("\n"));
    write("out/sizes.txt", sources.map((s) => s.length).join("\n"));
  },
};
const run = (): Promise<string[]> => buildIfStale([step], { root, log: () => {} });

describe("buildIfStale", () => {
  it("builds when there is no output, then only when an input's contents change", async () => {
    write("src/a.ts", "export const a = 1;");
    write("src/b.ts", "export const b = 2;");
    write("config.json", "{}");

    expect(await run()).toEqual(["concat"]);
    expect(readFileSync(join(root, "out/bundle.txt"), "utf8")).toContain("a = 1");
    expect(await run()).toEqual([]);

    // Same contents written again (as a checkout does): still current.
    write("src/a.ts", "export const a = 1;");
    expect(await run()).toEqual([]);

    write("src/a.ts", "export const a = 3;");
    expect(await run()).toEqual(["concat"]);
    expect(readFileSync(join(root, "out/bundle.txt"), "utf8")).toContain("a = 3");

    // A test file is not an input of the build.
    write("src/a.test.ts", "test");
    expect(await run()).toEqual([]);

    // A new source, a changed single-file input, a deleted output, one of the outputs deleted: each rebuilds.
    write("src/c.ts", "export const c = 4;");
    expect(await run()).toEqual(["concat"]);
    write("config.json", '{"minify":true}');
    expect(await run()).toEqual(["concat"]);
    rmSync(join(root, "out"), { recursive: true });
    expect(await run()).toEqual(["concat"]);
    rmSync(join(root, "out/sizes.txt"));
    expect(await run()).toEqual(["concat"]);
    expect(builds).toBe(6);
  });

  it("does not record a build that failed, so the next start tries again", async () => {
    const failing = {
      ...step,
      name: "failing",
      outputs: ["out/never.txt"],
      build: () => Promise.reject(new Error("boom")),
    };
    await expect(buildIfStale([failing], { root, log: () => {} })).rejects.toThrow("boom");
    await expect(buildIfStale([failing], { root, log: () => {} })).rejects.toThrow("boom");
  });

  it("in a child process when asked (npm start), so the caller never holds the bundlers' memory", () => {
    // scripts/build.mjs knows the real steps only: this one fails there, and is never built here.
    const elsewhere = {
      ...step,
      name: "not-a-real-step",
      outputs: ["out/none.txt"],
      build: () => Promise.reject(new Error("built in the calling process")),
    };
    expect(() => buildIfStaleInChild([elsewhere], { stdio: "ignore" })).toThrow(
      "build not-a-real-step failed",
    );
  });
});
