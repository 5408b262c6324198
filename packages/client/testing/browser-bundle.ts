import { gzipSync } from "node:zlib";
import { build } from "esbuild";

export const CORE_ENTRY = new URL("../src/core.ts", import.meta.url).pathname;

export interface BrowserBundle {
  /** What a page loads at start-up: the entry's chunk and the chunks it imports statically. */
  minifiedBytes: number;
  /**
   * The same gzipped as one file: what they add to the start-up bundle of the app that imports the SDK (its
   * bundler puts the statically imported chunks in with the app's own code).
   */
  gzipBytes: number;
  /** Each start-up chunk gzipped on its own, summed (a page that served esbuild's chunks as they are). */
  chunkGzipBytes: number;
  /** Every module with code in the start-up chunks (tree-shaken ones left out). */
  inputs: string[];
  /** The chunks loaded with `import()` when first needed (air-gapped activation), by their modules. */
  lazy: Array<{ gzipBytes: number; inputs: string[] }>;
}

/**
 * Bundles an entry (default: `@licensing/client/core`) as a web app would: esbuild, browser platform,
 * minified ESM with code splitting, so what the SDK loads with `import()` is a chunk of its own (decision
 * 0051). esbuild refuses a Node built-in on that platform, so a build that succeeds pulled none.
 */
export async function bundleForBrowser(entry = CORE_ENTRY): Promise<BrowserBundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    splitting: true,
    outdir: "/virtual-out",
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const contents = new Map(result.outputFiles.map((file) => [file.path, file.contents]));
  const key = (path: string) =>
    Object.keys(outputs).find((k) => path.endsWith(k.replace(/^.*?virtual-out/, "")))!;
  const entryKey = Object.keys(outputs).find(
    (k) => outputs[k]!.entryPoint !== undefined && k.endsWith(".js"),
  )!;
  const startup = new Set<string>();
  const visit = (k: string) => {
    if (startup.has(k)) return;
    startup.add(k);
    for (const imported of outputs[k]!.imports)
      if (imported.kind === "import-statement") visit(key(imported.path));
  };
  visit(entryKey);
  const code = (k: string) => contents.get([...contents.keys()].find((p) => key(p) === k)!)!;
  const sizes = (k: string) => ({
    minified: code(k).byteLength,
    gzip: gzipSync(code(k), { level: 9 }).byteLength,
  });
  const inputsOf = (k: string) =>
    Object.entries(outputs[k]!.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path);
  const chunks = Object.keys(outputs).filter((k) => k.endsWith(".js"));
  return {
    minifiedBytes: [...startup].reduce((sum, k) => sum + sizes(k).minified, 0),
    gzipBytes: gzipSync(Buffer.concat([...startup].map(code)), { level: 9 }).byteLength,
    chunkGzipBytes: [...startup].reduce((sum, k) => sum + sizes(k).gzip, 0),
    inputs: [...startup].flatMap(inputsOf),
    lazy: chunks
      .filter((k) => !startup.has(k))
      .map((k) => ({ gzipBytes: sizes(k).gzip, inputs: inputsOf(k) })),
  };
}
