/**
 * `npm run bench:admin`: builds the admin app for production and prints its files' sizes (raw, gzip,
 * brotli), and the first visit's download: index.html and what it links (chunks loaded later excluded).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { ADMIN_DIST, ensureAdminBuild } from "../apps/admin/ensure-build.ts";

if (process.argv.includes("--help")) {
  console.log("usage: npm run bench:admin   (builds apps/admin when stale, then prints bundle sizes)");
  process.exit(0);
}
ensureAdminBuild();
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`.padStart(10);
const files = [
  "index.html",
  ...readdirSync(join(ADMIN_DIST, "assets")).map((name) => join("assets", name)),
].filter((f) => statSync(join(ADMIN_DIST, f)).isFile());
const html = readFileSync(join(ADMIN_DIST, "index.html"), "utf8");
const firstVisit = (file: string) => file === "index.html" || html.includes(`/${file}`);
const totals = { raw: 0, gzip: 0, brotli: 0 };
const first = { raw: 0, gzip: 0, brotli: 0 };
console.log(`${"file".padEnd(36)}${"raw".padStart(10)}${"gzip".padStart(10)}${"brotli".padStart(10)}`);
for (const file of files) {
  const bytes = readFileSync(join(ADMIN_DIST, file));
  const sizes = {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes).length,
  };
  totals.raw += sizes.raw;
  totals.gzip += sizes.gzip;
  totals.brotli += sizes.brotli;
  if (firstVisit(file)) for (const k of ["raw", "gzip", "brotli"] as const) first[k] += sizes[k];
  console.log(`${file.padEnd(36)}${kb(sizes.raw)}${kb(sizes.gzip)}${kb(sizes.brotli)}`);
}
console.log(`${"first visit".padEnd(36)}${kb(first.raw)}${kb(first.gzip)}${kb(first.brotli)}`);
console.log(`${"total".padEnd(36)}${kb(totals.raw)}${kb(totals.gzip)}${kb(totals.brotli)}`);
