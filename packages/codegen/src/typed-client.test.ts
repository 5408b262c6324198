import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "./cli.ts";
import { readmeExampleSchema } from "./testing/readme-schema.ts";

/**
 * The README's example schema through `licensing-codegen --schema`, then a program that uses the types with
 * `LicenseClient<EditorConfig>` (the SDK's sources), compiled by TypeScript: right uses compile, a
 * misspelled path or feature does not.
 */
const repo = new URL("../../../", import.meta.url).pathname;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "licensing-typed-client-"));
  await writeFile(join(dir, "schema.json"), await readmeExampleSchema());
  const status = await main(
    ["--schema", join(dir, "schema.json"), "--name", "EditorConfig", "--out", join(dir, "license-config.ts")],
    { stdout: () => {}, stderr: () => {}, env: {} },
  );
  expect(status).toBe(0);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The diagnostics of `app.ts` with `body` in it, as `line: message`. */
async function compile(body: string): Promise<string[]> {
  const file = join(dir, "app.ts");
  await writeFile(
    file,
    `import { LicenseClient } from "@licensing/client";
import type { EditorConfig, EditorFeature } from "./license-config.ts";
const client = new LicenseClient<EditorConfig>({ serverUrl: "https://x", licenseFilePath: "a.lic", publicKey: "00".repeat(32) });
${body}
`,
  );
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2023,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.esnext.disposable.d.ts"],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [join(repo, "node_modules/@types")],
    paths: { "@licensing/client": [join(repo, "packages/client/src/index.ts")] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file || !d.file)
    .map((d) => {
      const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start!).line + 1 - 3 : 0;
      return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`;
    });
}

describe("types generated from the README's example schema", () => {
  it("compile, and type getConfig and hasFeature", { timeout: 120_000 }, async () => {
    expect(
      await compile(`
const seats: number | null = client.getConfig("limits.maxSeats");
const projects: number | null = client.getConfig("limits.maxProjects");
const tier: "standard" | "pro" | null = client.getConfig("tier");
const first: EditorFeature | null = client.getConfig("features.0");
const exported: boolean = client.hasFeature("cloud-backup");
export { seats, projects, tier, first, exported };
`),
    ).toEqual([]);
  });

  it("refuse a misspelled path or feature, and a value of the wrong type", { timeout: 120_000 }, async () => {
    const errors = await compile(`
client.getConfig("limits.maxSeat");
client.hasFeature("exprot");
const seats: string | null = client.getConfig("limits.maxSeats");
export { seats };
`);
    expect(errors).toEqual([
      "2: No overload matches this call.",
      `3: Argument of type '"exprot"' is not assignable to parameter of type '"export" | "sync" | "cloud-backup"'.`,
      "4: Type 'number | null' is not assignable to type 'string | null'.",
    ]);
  });
});
