import { gzipSync } from "node:zlib";
import { build } from "esbuild";

export const CORE_ENTRY = new URL("../src/core.ts", import.meta.url).pathname;

export interface BrowserBundle {
  minifiedBytes: number;
  gzipBytes: number;
  /** Every module with code in the bundle (tree-shaken ones left out). */
  inputs: string[];
}

/**
 * Bundles an entry (default: `@licensing/client/core`) as a web app would: esbuild, browser platform,
 * minified ESM. esbuild refuses a Node built-in on that platform, so a build that succeeds pulled none.
 */
export async function bundleForBrowser(entry = CORE_ENTRY): Promise<BrowserBundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  return {
    minifiedBytes: code.byteLength,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    inputs: Object.entries(Object.values(result.metafile.outputs)[0]!.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  };
}
