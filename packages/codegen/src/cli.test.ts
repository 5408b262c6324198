import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp, type TestClient } from "@licensing/api/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type CliIo } from "./cli.ts";
import { readmeExampleSchema } from "./testing/readme-schema.ts";

let app: TestApp;
let operator: TestClient;
let token: string;
let templateId: string;
let dir: string;
let readmeSchema: string;

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  readmeSchema = await readmeExampleSchema();
  const company = await operator.api.companies.create({ body: { name: "Acme", slug: "acme" } });
  const template = await operator.api.templates.create({
    body: { name: "Acme Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 365 },
  });
  templateId = template.body.id;
  for (const configSchema of [
    '{"type": "object", "properties": {"tier": {"type": "string"}}}',
    readmeSchema,
  ]) {
    await operator.api.templates.versions.create({ params: { id: templateId }, body: { configSchema } });
  }
  // A company Admin's personal access token: reading templates needs no operator.
  const created = await operator.api.apiTokens.create({
    body: { name: "codegen", companyId: company.body.id },
  });
  token = created.body.secret;
  dir = await mkdtemp(join(tmpdir(), "licensing-codegen-"));
});
afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs `licensing-codegen args…` in-process; what it printed, and its exit status. */
async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env };
  const status = await main(args, io);
  return { status, stdout, stderr };
}
const server = () => ["--server-url", app.url, "--token", token];

describe("licensing-codegen --server-url --token --template", () => {
  it("writes the current version's types, the file the panel's operation returns", async () => {
    const out = join(dir, "src", "license-config.ts");
    const result = await run([...server(), "--template", "editor", "--out", out]);
    expect(result).toEqual({
      status: 0,
      stdout: "",
      stderr: `licensing-codegen: wrote EditorConfig and EditorFeature (EDITOR, template version 2) to ${out}\n`,
    });
    const written = await readFile(out, "utf8");
    expect(written).toContain('export type EditorFeature = "export" | "sync" | "cloud-backup";');
    const panel = await operator.api.templates.versions.types({ params: { id: templateId, version: 2 } });
    expect(written).toBe(panel.body.source);
  });

  it("takes --version, --name, the token from LICENSING_TOKEN, and writes to standard output", async () => {
    const result = await run(
      ["--server-url", `${app.url}/`, "--template", "EDITOR", "--version", "1", "--name", "Entitlements"],
      { LICENSING_TOKEN: token },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("(EDITOR, template version 1)");
    expect(result.stdout).toContain("export interface Entitlements {\n  tier?: string;\n}");
    expect(result.stdout).not.toContain("Feature");
  });

  it("says what went wrong: unknown template or version, a bad token, no server", async () => {
    expect(await run([...server(), "--template", "VIEWER"])).toMatchObject({
      status: 1,
      stderr: "licensing-codegen: No template with product code VIEWER; the token sees EDITOR\n",
    });
    expect(await run([...server(), "--template", "EDITOR", "--version", "7"])).toMatchObject({
      status: 1,
      stderr: "licensing-codegen: EDITOR has no version 7; it has 1, 2\n",
    });
    const badToken = await run(["--server-url", app.url, "--token", "svc_pat_nope", "--template", "EDITOR"]);
    expect(badToken.status).toBe(1);
    expect(badToken.stderr).toMatch(/answered 401 auth\.invalid_token: /);
    const closed = await run([
      "--server-url",
      "http://127.0.0.1:9",
      "--token",
      token,
      "--template",
      "EDITOR",
    ]);
    expect(closed.status).toBe(1);
    expect(closed.stderr).toMatch(/^licensing-codegen: Cannot reach http:\/\/127\.0\.0\.1:9: /);
  });
});

describe("licensing-codegen --schema", () => {
  it("reads a saved schema: LicenseConfig unless --name says otherwise", async () => {
    const file = join(dir, "editor-schema.json");
    await writeFile(file, readmeSchema);
    const result = await run(["--schema", file]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("(editor-schema.json)");
    expect(result.stdout).toContain("export interface LicenseConfig {");
    expect(result.stdout).toContain('export type LicenseFeature = "export" | "sync" | "cloud-backup";');

    const broken = join(dir, "broken.json");
    await writeFile(broken, '{"type": ');
    expect(await run(["--schema", broken])).toMatchObject({
      status: 1,
      stderr: expect.stringMatching(/^licensing-codegen: .*broken\.json is not JSON: /),
    });
    const missing = await run(["--schema", join(dir, "none.json")]);
    expect(missing).toMatchObject({ status: 1, stderr: expect.stringContaining("ENOENT") });
  });
});

describe("licensing-codegen usage", () => {
  it("answers 2 with the help for missing or conflicting options", async () => {
    for (const args of [
      [],
      ["--template", "EDITOR"],
      ["--server-url", app.url, "--template", "EDITOR"],
      ["--schema", "a.json", "--template", "EDITOR"],
      [...server(), "--template", "EDITOR", "--version", "two"],
      ["--unknown"],
    ]) {
      const result = await run(args);
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr).toContain("licensing-codegen --server-url URL --token TOKEN --template CODE");
    }
    expect((await run(["--help"])).stdout).toMatch(/^licensing-codegen: TypeScript types/);
  });
});
