import { execFile } from "node:child_process";
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { createLicensedCompany } from "@licensing/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSdkTestServer, type SdkTestServer } from "../testing/index.ts";

/**
 * The published package, as a customer gets it: `npm pack` (whose prepack builds it), installed into an
 * empty project outside the repository with nothing but `typescript` and `@types/node` beside it (all from
 * the registry or the tarball), and the README's quick start run there against the real server, as an ES
 * module and as CommonJS; then a program using the public types is type-checked against the package alone,
 * and `licensing-codegen`, packed too, writes types from a template version that the SDK's types accept.
 */
const run = promisify(execFile);
const repo = new URL("../../../", import.meta.url).pathname;
const packageDir = new URL("..", import.meta.url).pathname;
const codegenDir = new URL("../../codegen/", import.meta.url).pathname;
// The test runs under npm and vitest; the child npm gets none of the parent's npm settings but its cache,
// and no path into the repository's node_modules.
const env = Object.fromEntries(
  Object.entries(process.env)
    .filter(([key]) => (!key.startsWith("npm_") || key === "npm_config_cache") && key !== "NODE_PATH")
    .map(([key, value]) =>
      key === "PATH"
        ? [
            key,
            value!
              .split(delimiter)
              .filter((dir) => !dir.startsWith(repo.replace(/\/$/, "")))
              .join(delimiter),
          ]
        : [key, value],
    ),
);
const npm = (args: string[], cwd: string) => run("npm", args, { cwd, env });
const node = (args: string[], cwd: string) => run(process.execPath, args, { cwd, env });

/** `npm pack` of a workspace package into `dest`; the tarball's path and its files. */
async function pack(dir: string, dest: string) {
  const packed = await npm(["pack", "--json", "--pack-destination", dest], dir);
  const [tarball] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  return { path: join(dest, tarball!.filename), files: tarball!.files.map((f) => f.path) };
}

/** The README's quick start, pointed at the test server and a license file of its own. */
async function quickStart() {
  const onDisk = await server.licenseOnDisk({
    config: JSON.stringify({ features: ["export"], limits: {} }),
  });
  const readme = await readFile(join(packageDir, "README.md"), "utf8");
  const block = /<!-- quick-start -->\s*```js\n([\s\S]*?)```/.exec(readme)![1]!;
  expect(block.split("\n").filter((line) => line.trim())).toHaveLength(10);
  const code = block
    .replace("https://licensing.example.com", server.app.url)
    .replace("./SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D.lic", onDisk.path)
    .replace("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", onDisk.license.publicKey);
  return { code, licenseId: onDisk.license.id };
}

/**
 * `tsc` over `files` in the project, strict, with only Node's types and the declarations of the installed
 * packages checked too (no skipLibCheck); what it printed (nothing when they compile).
 */
async function typeCheck(files: string[]) {
  const config = `tsconfig.${files.length}-${Date.now()}.json`;
  await writeFile(
    join(project, config),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "es2022",
        lib: ["es2022"],
        module: "nodenext",
        moduleResolution: "nodenext",
        types: ["node"],
        skipLibCheck: false,
        noEmit: true,
      },
      files,
    }),
  );
  const result = await node(["node_modules/typescript/bin/tsc", "-p", config], project).catch(
    (error: { stdout: string }) => error,
  );
  return result.stdout;
}

const expectDeactivated = async (licenseId: string) => {
  const activations = await server.admin.api.activations.list({ params: { id: licenseId } });
  expect(activations.body).toMatchObject([{ status: "deactivated" }]);
};

/** A program over the public types of both entries; the `@ts-expect-error` lines must fail to compile. */
const publicTypesProgram = `import {
  LicenseClient,
  LicensingApiError,
  inspectLicenseFile,
  type ClientErrorCode,
  type ClientStatus,
  type ConfigPath,
  type LicenseClientOptions,
  type Machine,
  type StatusDetails,
} from "@licensing/client";
import { LicenseClientCore, memoryStorage, type LicenseStorage } from "@licensing/client/core";

interface Config {
  features: ("export" | "sync")[];
  limits: { maxSeats: number; "project.size"?: number };
}
const options: LicenseClientOptions = {
  serverUrl: "https://licensing.example.com",
  licenseFilePath: "./license.lic",
  publicKey: "00".repeat(32),
};
const client = new LicenseClient<Config>(options);
const seats: number | null = client.getConfig("limits.maxSeats");
const size: number | null = client.getConfig("limits.project.size");
const exported: boolean = client.hasFeature("sync");
// @ts-expect-error a misspelled path
client.getConfig("limits.maxSeat");
// @ts-expect-error a feature the config does not list
client.hasFeature("exprot");
const path: ConfigPath<Config> = "limits";
const untyped = new LicenseClient(options);
const anything: number | null = untyped.getConfig<number>("any.path");
const storage: LicenseStorage = memoryStorage({ license: "" });
const core = new LicenseClientCore({ ...options, storage, hwFingerprint: "fingerprint" });
const details: StatusDetails = core.statusDetails;
const status: ClientStatus = client.status;
const inspected: Promise<unknown> = inspectLicenseFile({ licenseFilePath: "./license.lic", publicKey: options.publicKey });
const machines: Promise<Machine[]> = client.listMachines();
const freed: Promise<boolean> = client.deactivateMachine("b5e0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d");
const code: ClientErrorCode | undefined = client.statusDetails.lastError?.code;
const refused: boolean = client.statusDetails.reason === "seat-limit" && client.statusDetails.machines !== null;
// @ts-expect-error not a code the client can meet
const wrong: ClientErrorCode = "activation.seat_limit";
const upgraded = new LicenseClient({ ...options, fingerprintVersion: 1, components: { "machine-id": "x" } });
const apiError: unknown = new LicensingApiError({ code: "network.error", message: "", status: null, retryable: true, retryAfterMs: null });
export { seats, size, exported, path, anything, details, status, inspected, machines, freed, code, refused, wrong, upgraded, apiError };
`;

let server: SdkTestServer;
let project: string;
let sdk: { path: string; files: string[] };
beforeAll(async () => {
  server = await startSdkTestServer();
  project = await mkdtemp(join(tmpdir(), "licensing-pack-"));
  sdk = await pack(packageDir, project);
  const root = JSON.parse(await readFile(join(repo, "package.json"), "utf8"));
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "customer-app", private: true }));
  // One install for every check: the tarball, and what a TypeScript customer has.
  await npm(
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      sdk.path,
      `typescript@${root.devDependencies.typescript}`,
      `@types/node@${root.devDependencies["@types/node"]}`,
    ],
    project,
  );
}, 300_000);
afterAll(async () => {
  await server?.close();
  await rm(project, { recursive: true, force: true });
});

describe("npm pack of @licensing/client, installed into an empty project", () => {
  it("ships dist/, package.json and the README, with declarations that import only the package's own", async () => {
    expect(sdk.files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "LICENSE",
        "dist/index.js",
        "dist/index.cjs",
        "dist/core.d.ts",
      ]),
    );
    expect(
      sdk.files.filter(
        (f) => !f.startsWith("dist/") && !["package.json", "README.md", "LICENSE"].includes(f),
      ),
    ).toEqual([]);
    const installed = join(project, "node_modules/@licensing/client");
    const manifest = JSON.parse(await readFile(join(installed, "package.json"), "utf8"));
    expect(manifest.version).toBe("1.0.0");
    expect(manifest.license).toBe("Apache-2.0");
    expect(await readFile(join(installed, "LICENSE"), "utf8")).toContain("Apache License");
    // Both small, dependency-free and without install scripts: Ed25519, and the offline request's QR code.
    expect(Object.keys(manifest.dependencies)).toEqual(["@noble/ed25519", "qr"]);
    // Every file `exports` names is in the package (the workspace's `@licensing/source` aside).
    const targets = (entry: unknown): string[] =>
      typeof entry === "string"
        ? [entry]
        : Object.entries(entry as object).flatMap(([key, value]) =>
            key === "@licensing/source" ? [] : targets(value),
          );
    for (const target of targets(manifest.exports)) {
      await expect(access(join(installed, target)), target).resolves.toBeUndefined();
    }
    const declarations = (await readdir(join(installed, "dist"))).filter((f) => /\.d\.c?ts$/.test(f));
    expect(declarations.sort()).toEqual(["core.d.cts", "core.d.ts", "index.d.cts", "index.d.ts"]);
    for (const file of declarations) {
      const text = await readFile(join(installed, "dist", file), "utf8");
      const imported = [...text.matchAll(/(?:from|import\()\s*["']([^"']+)["']/g)].map((m) => m[1]!);
      expect(
        imported.filter(
          (s) => !s.startsWith("./") && !s.startsWith("node:") && !(s in manifest.dependencies),
        ),
        file,
      ).toEqual([]);
    }
  });

  it("runs the README's quick start as an ES module", { timeout: 60_000 }, async () => {
    const { code, licenseId } = await quickStart();
    await writeFile(join(project, "quick-start.mjs"), code);
    const result = await node(["quick-start.mjs"], project);
    expect(result.stdout.trim().split("\n")).toEqual([
      "license: Invalid -> Active",
      "Active marker-valid true",
    ]);
    await expectDeactivated(licenseId);
  });

  it("runs the README's quick start as CommonJS: require, the rest in an async function", async () => {
    const { code, licenseId } = await quickStart();
    const [importLine, ...rest] = code.trim().split("\n");
    expect(importLine).toBe('import { LicenseClient } from "@licensing/client";');
    const commonJs = [
      'const { LicenseClient } = require("@licensing/client");',
      "(async () => {",
      ...rest,
      "})();",
    ].join("\n");
    await writeFile(join(project, "quick-start.cjs"), commonJs);
    const result = await node(["quick-start.cjs"], project);
    expect(result.stdout.trim().split("\n")).toEqual([
      "license: Invalid -> Active",
      "Active marker-valid true",
    ]);
    await expectDeactivated(licenseId);
    // Both entries load through require.
    const entries = await node(
      ["-e", "console.log(typeof require('@licensing/client/core').deriveStatus)"],
      project,
    );
    expect(entries.stdout.trim()).toBe("function");
  });

  it(
    "type-checks a program over the public types, as ES module and CommonJS, with the declarations checked too",
    { timeout: 120_000 },
    async () => {
      await writeFile(join(project, "app.mts"), publicTypesProgram);
      await writeFile(join(project, "app.cts"), publicTypesProgram);
      expect(await typeCheck(["app.mts", "app.cts"])).toBe("");
    },
  );

  it(
    "takes the types that licensing-codegen, packed too, writes from a template version",
    { timeout: 240_000 },
    async () => {
      const operator = await server.app.client({ signIn: true });
      const { templateId } = await createLicensedCompany(operator);
      const readme = await readFile(join(packageDir, "README.md"), "utf8");
      const configSchema = /<!-- example-schema -->\s*```json\n([\s\S]*?)```/.exec(readme)![1]!;
      await operator.api.templates.versions.create({ params: { id: templateId }, body: { configSchema } });
      const { productCode } = (await operator.api.templates.get({ params: { id: templateId } })).body;

      const codegen = await pack(codegenDir, project);
      expect(codegen.files.sort()).toEqual([
        "README.md",
        "bin/licensing-codegen.js",
        "dist/cli.js",
        "dist/cli.js.map",
        "package.json",
      ]);
      await npm(
        ["install", "--no-audit", "--no-fund", "--prefer-offline", "--save-dev", codegen.path],
        project,
      );
      const token = server.admin.headers.authorization!.replace(/^Bearer /, "");
      const written = await npm(
        [
          "exec",
          "--no",
          "--",
          "licensing-codegen",
          "--server-url",
          server.app.url,
          "--token",
          token,
          "--template",
          productCode,
          "--name",
          "EditorConfig",
          "--out",
          "src/license-config.ts",
        ],
        project,
      );
      expect(written.stderr).toContain(
        `wrote EditorConfig and EditorFeature (${productCode}, template version 1)`,
      );

      await mkdir(join(project, "src"), { recursive: true });
      await writeFile(
        join(project, "src/app.mts"),
        `import { LicenseClient } from "@licensing/client";
import type { EditorConfig, EditorFeature } from "./license-config.js";

const client = new LicenseClient<EditorConfig>({ serverUrl: "https://x", licenseFilePath: "a.lic", publicKey: "00".repeat(32) });
const seats: number | null = client.getConfig("limits.maxSeats");
const feature: EditorFeature = "cloud-backup";
const has: boolean = client.hasFeature(feature);
// @ts-expect-error a misspelled path
client.getConfig("limits.maxSeat");
// @ts-expect-error a misspelled feature
client.hasFeature("exprot");
export { seats, has };
`,
      );
      expect(await typeCheck(["src/app.mts", "src/license-config.ts"])).toBe("");
    },
  );
});
