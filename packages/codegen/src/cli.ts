import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { parseArgs } from "node:util";
import { ConfigTypesError, configTypeName, generateConfigTypes } from "@licensing/config-types";
import { CodegenError, templateSchema } from "./template-schema.ts";

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  fetch?: typeof globalThis.fetch;
}

const processIo = (): CliIo => ({
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: process.env,
});

export const helpText = `licensing-codegen: TypeScript types of a product's license config, from its template
version's configSchema, for LicenseClient<Config> of @licensing/client.

  licensing-codegen --server-url URL --token TOKEN --template CODE [--version N] [--out FILE]
  licensing-codegen --schema FILE.json [--name TypeName] [--out FILE]

  --server-url URL   the licensing service, e.g. https://licensing.example.com
  --token TOKEN      a personal access token (svc_pat_…); or set LICENSING_TOKEN
  --template CODE    the template's product code, e.g. EDITOR
  --version N        the template version (default: the current one)
  --schema FILE      a configSchema saved as JSON, instead of the server
  --name TypeName    the config type's name (default: from the product code, EDITOR → EditorConfig;
                     LicenseConfig for --schema)
  --out FILE         where to write the types (default: standard output)

Writes the config's interface and, when the schema lists the items of "features", their union
(EditorFeature). Then: new LicenseClient<EditorConfig>(options).getConfig("limits.maxSeats") is a number.
`;

class UsageError extends Error {}

const positiveInteger = (text: string | undefined, option: string) => {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(text)) throw new UsageError(`${option} takes a version number (1, 2, …)`);
  return Number(text);
};

/** `licensing-codegen …`; resolves to the exit status (0 done, 1 failed, 2 wrong usage). */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        "server-url": { type: "string" },
        token: { type: "string" },
        template: { type: "string" },
        version: { type: "string" },
        schema: { type: "string" },
        name: { type: "string" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      io.stdout(helpText);
      return 0;
    }
    const version = positiveInteger(values.version, "--version");
    let schema: unknown;
    let source: string;
    let typeName = values.name;
    if (values.schema !== undefined) {
      if (values.template !== undefined || values["server-url"] !== undefined) {
        throw new UsageError("--schema reads a file: leave out --server-url and --template");
      }
      const text = await readFile(values.schema, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new CodegenError(`Cannot read ${values.schema}: ${error.code ?? error.message}`);
      });
      try {
        schema = JSON.parse(text);
      } catch (error) {
        throw new CodegenError(`${values.schema} is not JSON: ${(error as Error).message}`);
      }
      source = basename(values.schema);
      typeName ??= "LicenseConfig";
    } else {
      const serverUrl = values["server-url"];
      const token = values.token ?? io.env.LICENSING_TOKEN;
      if (!serverUrl || !values.template) {
        throw new UsageError("Give --server-url and --template (or --schema FILE)");
      }
      if (!token) throw new UsageError("Give --token (or set LICENSING_TOKEN): a personal access token");
      const found = await templateSchema({
        serverUrl,
        token,
        productCode: values.template,
        ...(version === undefined ? {} : { version }),
        ...(io.fetch ? { fetch: io.fetch } : {}),
      });
      schema = found.schema;
      source = `${found.productCode}, template version ${found.version}`;
      typeName ??= configTypeName(found.productCode);
    }
    const types = await generateConfigTypes(schema, { typeName, source });
    if (values.out === undefined) {
      io.stdout(types.source);
    } else {
      await mkdir(dirname(values.out), { recursive: true });
      await writeFile(values.out, types.source);
      const named = [types.typeName, types.featureTypeName].filter(Boolean).join(" and ");
      io.stderr(`licensing-codegen: wrote ${named} (${source}) to ${values.out}\n`);
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`licensing-codegen: ${(error as Error).message}\n\n${helpText}`);
      return 2;
    }
    if (error instanceof CodegenError || error instanceof ConfigTypesError) {
      io.stderr(`licensing-codegen: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
