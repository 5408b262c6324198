// @ts-check
// Runs each build step whose output is missing or whose inputs changed since it was built. Plain
// JavaScript: `npm start` runs this before any TypeScript is compiled.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { stderr } from "node:process";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * @typedef {object} BuildStep
 * @property {string} name Short name, used for the stamp file and in messages.
 * @property {string[]} inputs Files and folders (relative to the root) whose contents decide the output.
 * @property {(path: string) => boolean} [ignore] Input files that do not affect the output (e.g. tests).
 * @property {string} output The file or folder the step writes (relative to the root).
 * @property {() => Promise<void>} build Writes `output`.
 */

const skippedDirs = new Set(["node_modules", "dist", ".turbo", ".data", "coverage"]);

/** @param {string} path @param {string[]} into */
function listFiles(path, into) {
  if (!existsSync(path)) return into;
  if (!statSync(path).isDirectory()) {
    into.push(path);
    return into;
  }
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && skippedDirs.has(entry.name)) continue;
    listFiles(join(path, entry.name), into);
  }
  return into;
}

/**
 * A hash of every input file's path and contents: a changed, added or deleted file changes it, while a
 * checkout that only touches modification times does not.
 * @param {BuildStep} step
 * @param {string} [base]
 */
export function fingerprint(step, base = root) {
  const hash = createHash("sha256");
  const files = step.inputs
    .flatMap((input) => listFiles(join(base, input), []))
    .map((file) => relative(base, file).split("\\").join("/"))
    .filter((file) => !step.ignore?.(file))
    .sort();
  for (const file of files) {
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(base, file)))
      .update("\0");
  }
  return hash.digest("hex");
}

/** @param {BuildStep} step @param {string} base */
const stampFile = (step, base) =>
  join(base, "node_modules", ".cache", "licensing-build", `${step.name}.json`);

/**
 * Why the step must run, or null when its output is current.
 * @param {BuildStep} step
 * @param {string} hash
 * @param {string} [base]
 */
export function staleReason(step, hash, base = root) {
  if (!existsSync(join(base, step.output))) return "no build yet";
  const file = stampFile(step, base);
  if (!existsSync(file)) return "no build stamp";
  const stamp = JSON.parse(readFileSync(file, "utf8"));
  return stamp.fingerprint === hash ? null : "sources changed";
}

/**
 * Builds what is stale, in order; returns the names of the steps that ran.
 * @param {BuildStep[]} steps
 * @param {{ log?: (line: string) => void, force?: boolean, root?: string }} [options] `root`: where the
 *   steps' paths start and the stamps are kept (default the repository).
 */
export async function buildIfStale(steps, options = {}) {
  const base = options.root ?? root;
  const log = options.log ?? ((line) => stderr.write(`${line}\n`));
  /** @type {string[]} */
  const built = [];
  for (const step of steps) {
    const hash = fingerprint(step, base);
    const reason = options.force ? "forced" : staleReason(step, hash, base);
    if (!reason) continue;
    const started = performance.now();
    log(`build ${step.name}: ${reason}, building ${step.output}`);
    await step.build();
    // The inputs are hashed before the build, so an edit made during it triggers the next one.
    mkdirSync(dirname(stampFile(step, base)), { recursive: true });
    writeFileSync(
      stampFile(step, base),
      JSON.stringify({ fingerprint: hash, builtAt: new Date().toISOString() }),
    );
    log(`build ${step.name}: done in ${Math.round(performance.now() - started)} ms`);
    built.push(step.name);
  }
  return built;
}
