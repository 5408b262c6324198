// @ts-check
// Runs each build step whose output is missing or whose inputs changed since it was built. Plain
// JavaScript: `npm start` runs this before any TypeScript is compiled.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { execPath, pid, stderr } from "node:process";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * @typedef {object} BuildStep
 * @property {string} name Short name, used for the stamp file and in messages.
 * @property {string[]} inputs Files and folders (relative to the root) whose contents decide the output.
 * @property {(path: string) => boolean} [ignore] Input files that do not affect the output (e.g. tests).
 * @property {string[]} outputs The files the step writes (relative to the root); a missing one means no build.
 * @property {() => Promise<void>} build Writes `outputs`.
 */

/**
 * Writes a file whole, through a temporary file and a rename: a process reading it while another rebuilds
 * (tests that start `npm start` at the same time) reads the old contents or the new, never half.
 * @param {string} path
 * @param {string | Uint8Array} contents
 */
export function writeWhole(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

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
  if (!step.outputs.every((output) => existsSync(join(base, output)))) return "no build yet";
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
    log(`build ${step.name}: ${reason}, building ${step.outputs.join(", ")}`);
    await step.build();
    // The inputs are hashed before the build, so an edit made during it triggers the next one.
    writeWhole(
      stampFile(step, base),
      JSON.stringify({ fingerprint: hash, builtAt: new Date().toISOString() }),
    );
    log(`build ${step.name}: done in ${Math.round(performance.now() - started)} ms`);
    built.push(step.name);
  }
  return built;
}

/**
 * What runs before a build is loaded (`npm start`, `npm run rotate-master-key`, the admin app's tests): when
 * a step is stale, `scripts/build.mjs` in a child process builds it, so that the caller does not keep the
 * bundlers' memory (a server that built the admin app in-process idles at 700 MB instead of 250). Returns
 * whether it built; throws when the build failed (the child has printed why).
 * @param {BuildStep[]} steps
 * @param {{ stdio?: "inherit" | "ignore" }} [options]
 */
export function buildIfStaleInChild(steps, options = {}) {
  const stale = steps.filter((step) => staleReason(step, fingerprint(step)));
  if (stale.length === 0) return false;
  const names = stale.map((step) => step.name);
  const child = spawnSync(execPath, [join(root, "scripts/build.mjs"), ...names], {
    stdio: options.stdio ?? "inherit",
  });
  if (child.status !== 0) throw new Error(`build ${names.join(", ")} failed`);
  return true;
}
