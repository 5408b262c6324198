import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const start = fileURLToPath(new URL("../../../../scripts/start.mjs", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "licensing-start-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

describe("npm start", () => {
  // Linux only: the figure is the kernel's resident set of the server process (docs/performance.md).
  it.skipIf(process.platform !== "linux")(
    "serves from the compiled build and idles under 300 MB on a new embedded database",
    async () => {
      const child = spawn(process.execPath, [start], {
        env: { ...process.env, PORT: "0", DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (d: Buffer) => (output += d.toString()));
      child.stderr.on("data", (d: Buffer) => (output += d.toString()));
      try {
        const port = await new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no start within 150 s:\n${output}`)), 150_000);
          child.stdout.on("data", () => {
            const match = /"port":(\d+)/.exec(output);
            if (match) {
              clearTimeout(timer);
              resolve(Number(match[1]));
            }
          });
          child.on("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
        });
        expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
        // The process runs the bundle, whose source map names the TypeScript it was built from.
        const map = JSON.parse(
          readFileSync(fileURLToPath(new URL("../../dist/main.js.map", import.meta.url)), "utf8"),
        );
        expect(map.sources).toContain("../src/main.ts");

        // Idle is after the start-up transient: V8 returns the start-up's garbage when the process has
        // been quiet for a while (its memory reducer), sooner on an idle machine than on a busy one.
        const samples: number[] = [];
        for (let second = 0; second < 90; second++) {
          samples.push(Math.round(rssMiB(child.pid!)));
          if (samples.at(-1)! < 300) break;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
        expect(samples.at(-1), `RSS each second after /readyz: ${samples.join(", ")} MiB`).toBeLessThan(300);
      } finally {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    },
    300_000,
  );
});
