import { readFile } from "node:fs/promises";

/** The example schema of the SDK's README (the JSON block after `<!-- example-schema -->`), as tests use it. */
export async function readmeExampleSchema(): Promise<string> {
  const readme = await readFile(new URL("../../../client/README.md", import.meta.url), "utf8");
  const block = /<!-- example-schema -->\s*```json\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error("packages/client/README.md has no example schema");
  return block[1]!;
}
