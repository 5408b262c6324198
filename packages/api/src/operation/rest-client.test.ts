import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTokenClient } from "../testing/fixtures.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import { operation } from "./operation.ts";

/**
 * Issue 21 §6: a third party generates types from the served document with openapi-typescript and calls
 * issue and search with openapi-fetch, exactly as docs/rest-client.md shows: its command and its program,
 * type-checked by tsc and run against a started app. The types are generated into a temporary project on
 * every run rather than committed, because that is what an integrator does and a committed copy would
 * only test itself.
 */

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "../../../..");
const require = createRequire(import.meta.url);
const bin = (pkg: string, path: string) => join(dirname(require.resolve(`${pkg}/package.json`)), path);

const suite = useClientApi();
let project: string;
beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), "licensing-rest-client-"));
  // The integrator's project: ESM, its own tsconfig, and the packages the guide installs (the
  // repository's, linked rather than downloaded).
  await mkdir(join(project, "src"));
  await symlink(join(repository, "node_modules"), join(project, "node_modules"), "dir");
  await writeFile(join(project, "package.json"), JSON.stringify({ type: "module", private: true }));
  await writeFile(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        skipLibCheck: true,
        types: ["node"],
        outDir: "dist",
        rootDir: "src",
      },
      include: ["src"],
    }),
  );
});
afterAll(() => (project ? rm(project, { recursive: true, force: true }) : undefined));

async function guide() {
  const text = await readFile(join(repository, "docs/rest-client.md"), "utf8");
  const blocks = [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, code]) => ({
    lang,
    code: code!,
  }));
  const program = blocks.find((b) => b.lang === "ts" && b.code.includes("createClient"))?.code;
  const commands = blocks.filter((b) => b.lang === "sh").map((b) => b.code);
  return { program: program!, commands: commands.join("\n") };
}

const tsc = () =>
  run(process.execPath, [bin("typescript", "bin/tsc"), "-p", project], { cwd: project }).then(
    () => "",
    (error: { stdout?: string; message: string }) => error.stdout || error.message,
  );

describe("a typed REST client from the served OpenAPI document (docs/rest-client.md)", () => {
  it("generates the types with openapi-typescript, compiles the guide's program with tsc and runs it", async () => {
    const { app, operator, target } = suite;
    const { program, commands } = await guide();
    const documentUrl = "http://localhost:3000/api/v1/openapi.json";
    expect(commands).toContain(`npx openapi-typescript ${documentUrl} -o src/licensing-api.d.ts`);

    // The guide's command, against the started app.
    await run(process.execPath, [
      bin("openapi-typescript", "bin/cli.js"),
      `${app.url}/api/v1/openapi.json`,
      "-o",
      join(project, "src/licensing-api.d.ts"),
    ]);
    await writeFile(join(project, "src/licensing.ts"), program);
    // What the types must refuse: a missing required field, an unknown path, a wrong type. tsc reports an
    // expect-error directive with nothing to expect, so each of these must really fail to compile.
    await writeFile(
      join(project, "src/refused.ts"),
      [
        'import createClient from "openapi-fetch";',
        'import type { paths } from "./licensing-api.js";',
        "const api = createClient<paths>({});",
        "// @ts-expect-error companyId is required",
        'void api.POST("/panel/licenses", { body: { templateId: "t" } });',
        "// @ts-expect-error no such path",
        'void api.GET("/panel/licences");',
        "// @ts-expect-error isTrial is a boolean",
        'void api.POST("/panel/licenses", { body: { companyId: "c", templateId: "t", isTrial: "yes" } });',
        'const found = await api.GET("/panel/licenses");',
        "// Responses are the output: every field is there, isTrial included.",
        "if (found.data) { const trial: boolean = found.data.items[0]!.isTrial; void trial; }",
        "",
      ].join("\n"),
    );
    expect(await tsc()).toBe("");

    // The integrator's token, made over HTTP as the guide says, and the program run as they would.
    const token = await createTokenClient(app, { id: target.companyId }, { creator: operator });
    const { stdout } = await run(process.execPath, [join(project, "dist/licensing.js")], {
      cwd: project,
      env: {
        ...process.env,
        LICENSING_URL: app.url,
        LICENSING_TOKEN: token.secret,
        COMPANY_ID: target.companyId,
        TEMPLATE_ID: target.templateId,
      },
    });
    const licenseKey = /^issued (\S+)$/m.exec(stdout)?.[1];
    expect(licenseKey).toMatch(/^SVC-/);
    // Issued with every defaulted field left out: the server applied the defaults.
    expect(stdout).toMatch(new RegExp(`^found ${licenseKey} Active false \\d{4}-`, "m"));
    expect(stdout).toMatch(/^exactly 1 matching$/m);
  }, 120_000);

  it("describes a defaulted field as optional in a request and present in a response", async () => {
    // One schema as both the body and the response: zod's input and output differ by the default.
    const Settings = z
      .object({ name: z.string(), flag: z.boolean().default(false) })
      .meta({ id: "Settings" });
    const echo = operation({
      method: "post",
      path: "/echo",
      summary: "Echo",
      description: "Returns its body with the defaults applied. Anyone may call; it changes nothing.",
      tags: ["Test"],
      auth: "public",
      body: Settings,
      response: Settings,
      handler: async ({ input }) => input,
    });
    const document = buildOpenApiDocument([echo], { version: "test", serverUrl: "http://localhost" });
    const types = astToString(await openapiTS(JSON.stringify(document)));
    const inRequest = /requestBodies: \{[\s\S]*?Settings: \{[\s\S]*?\n {8}\};/.exec(types)?.[0];
    const inResponse = /schemas: \{[\s\S]*?Settings: \{[\s\S]*?\n {8}\};/.exec(types)?.[0];
    expect(inRequest).toMatch(/flag\?: boolean;/);
    expect(inResponse).toMatch(/flag: boolean;/);
  });
});
