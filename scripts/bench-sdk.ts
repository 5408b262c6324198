/**
 * SDK benchmark (issue 11): the size of `@licensing/client/core` in a browser bundle, and how long
 * `initialize()` takes offline (a license file and a cached marker on disk, no server listening), the first
 * time in the process and then the median of the next runs; plus the cost of one signature check.
 *
 *   npx tsx scripts/bench-sdk.ts [--runs 100]
 */
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  encodeBase64url,
  encodeMarkerBody,
  encodeTokenSigningInput,
  utf8,
} from "../packages/protocol/src/index.ts";
import {
  defaultFingerprint,
  LicenseClient,
  toPublicKey,
  verifyLicenseToken,
} from "../packages/client/src/index.ts";
import { bundleForBrowser } from "../packages/client/testing/browser-bundle.ts";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "100" },
    help: { type: "boolean", short: "h", default: false },
  },
});
if (args.help) {
  console.log(`Usage: npx tsx scripts/bench-sdk.ts [--runs n]

Bundles src/core.ts with esbuild for the browser (minified ESM) and prints its size, raw and gzip -9.
Writes a signed license file, its cached marker and state into a temporary folder, then creates a
LicenseClient and awaits initialize() once (the first: fingerprint sources, WebCrypto and noble warm-up),
then --runs more times (default 100), each a new client over the same files with the server unreachable
(127.0.0.1:9, connection refused), and prints the median, p95 and max, and the median CPU time
(process.cpuUsage) that a busy machine does not inflate. Targets: ≤ 15 kB min+gzip, < 20 ms.`);
  process.exit(0);
}
const runs = Number(args.runs);
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

const bundle = await bundleForBrowser();
console.log(
  `core bundle (esbuild, browser, minified ESM): ${kB(bundle.minifiedBytes)}, gzip ${kB(bundle.gzipBytes)} (target ≤ 15 kB)`,
);

// A license signed like the server signs it (node:crypto Ed25519), valid for a year, with a marker for this machine.
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const publicKeyHex = Buffer.from(publicKey.export({ format: "der", type: "spki" }))
  .subarray(-32)
  .toString("hex");
const signed = (input: string) => encodeBase64url(sign(null, utf8(input), privateKey));
const now = Math.floor(Date.now() / 1000);
const claims = {
  iss: "licensing-service",
  sub: "0c6f6a3e-5c5b-4e0f-8d7e-1f2a3b4c5d6e",
  lid: "3f1d2c4b-6a7e-4f80-9b1c-2d3e4f5a6b7c",
  lk: "SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D",
  tpl: "EDITOR",
  ver: 1,
  iat: now,
  exp: now + 365 * 86_400,
  trial: false,
  hw: { mode: "none" as const, fp: null },
  cfg: { features: ["export"], limits: { maxSeats: 3 } },
};
const tokenInput = encodeTokenSigningInput("7d0e6c3b-2f61-4a55-9c1e-2b8f0e6f3a11", claims);
const token = `${tokenInput}.${signed(tokenInput)}`;
const activationId = "b5e0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d";
const markerBody = encodeMarkerBody({
  lid: claims.lid,
  aid: activationId,
  fp: await defaultFingerprint(),
  iat: now,
  exp: now + 7 * 86_400,
});
const dir = await mkdtemp(join(tmpdir(), "bench-sdk-"));
const licenseFilePath = join(dir, `${claims.lk}.lic`);
await writeFile(licenseFilePath, JSON.stringify({ licenseKey: claims.lk, token, publicKey: publicKeyHex }));
await writeFile(`${licenseFilePath}.hb`, `${markerBody}.${signed(markerBody)}`);
await writeFile(
  `${licenseFilePath}.state.json`,
  JSON.stringify({
    version: 1,
    licenseId: claims.lid,
    activationId,
    observedAt: now * 1000,
    observedClockAt: now * 1000,
  }),
);

async function initializeOnce() {
  const client = new LicenseClient({
    serverUrl: "http://127.0.0.1:9",
    licenseFilePath,
    publicKey: publicKeyHex,
  });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const ok = await client.initialize();
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  if (!ok || client.status !== "Active")
    throw new Error(`expected Active offline, got ${client.status} (${client.statusDetails.reason})`);
  await client.dispose();
  return { wall: elapsed, cpu: (cpu.user + cpu.system) / 1000 };
}

try {
  const first = await initializeOnce();
  const samples: Array<{ wall: number; cpu: number }> = [];
  for (let i = 0; i < runs; i++) samples.push(await initializeOnce());
  const wall = samples.map((s) => s.wall).sort((a, b) => a - b);
  const cpu = samples.map((s) => s.cpu).sort((a, b) => a - b);
  console.log(`initialize() offline, cached marker, first: ${ms(first.wall)} (CPU ${ms(first.cpu)})`);
  console.log(
    `initialize() offline, next ${runs}: median ${ms(percentile(wall, 0.5))}, p95 ${ms(percentile(wall, 0.95))}, max ${ms(wall.at(-1)!)}; CPU median ${ms(percentile(cpu, 0.5))} (target median < 20 ms)`,
  );
  const key = toPublicKey(publicKeyHex);
  const checks = 500;
  const started = performance.now();
  for (let i = 0; i < checks; i++) await verifyLicenseToken(token, key);
  console.log(
    `token verification (@noble/ed25519 over WebCrypto SHA-512): ${ms((performance.now() - started) / checks)} each`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
