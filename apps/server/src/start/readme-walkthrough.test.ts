import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { needTool, tools } from "@licensing/api/testing/tools";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "../env.ts";
import { startServer, type RunningServer } from "../server.ts";

const repo = fileURLToPath(new URL("../../../../", import.meta.url));
const suite = "the README walkthrough's test";
const bash = needTool(tools.bash, suite);
const curl = needTool(tools.curl, suite);
const openssl = needTool(tools.openssl, suite);

/** The README's walkthrough, as a reader pastes it: the shell block between its markers. */
function walkthrough(): string {
  const readme = readFileSync(join(repo, "README.md"), "utf8");
  const block = /<!-- walkthrough -->\s*```sh\n([\s\S]*?)```\s*<!-- \/walkthrough -->/.exec(readme);
  if (!block) throw new Error("README.md: no ```sh block between <!-- walkthrough --> markers");
  return block[1]!;
}

describe.skipIf(!bash || !curl || !openssl)("the README's walkthrough", () => {
  let database: TestDatabase;
  let server: RunningServer;
  // Inside the repository, as the README says (the SDK and tsx resolve from its node_modules); the block
  // makes its own `walkthrough/` folder here.
  const cwd = join(repo, "node_modules", ".cache");
  let dir: string;

  beforeAll(async () => {
    mkdirSync(cwd, { recursive: true });
    dir = mkdtempSync(join(cwd, "walkthrough-test-"));
    database = await createTestDatabase();
    const env = parseEnv({
      PORT: "0",
      DATA_DIR: dir,
      BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com",
      BOOTSTRAP_OPERATOR_PASSWORD: "change-me-now",
    });
    server = await startServer(env, { database, logger: pino({ level: "silent" }) });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await database?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs as pasted, twice on the same data, down to the SDK's quick start on the downloaded file", async () => {
    const block = walkthrough();
    expect(block).toContain("SERVER=http://localhost:3000;");
    // Only the address differs from what a reader pastes; -e and pipefail make any failed step fail the run.
    const script = `set -euo pipefail\n${block.replace("http://localhost:3000", server.url)}`;

    const keys: string[] = [];
    for (const run of [1, 2]) {
      const { stdout, stderr } = await promisify(execFile)(bash!, ["-c", script], { cwd: dir }).catch(
        (error: { stdout: string; stderr: string; code: number }) => {
          throw new Error(`run ${run} exited with ${error.code}:\n${error.stdout}\n${error.stderr}`);
        },
      );
      expect(stderr, `run ${run}`).toBe("");
      expect(stdout).toContain(
        '"email":"ops@example.com","displayName":"Bootstrap operator","isOperator":true',
      );
      expect(stdout).toMatch(/\{"heartbeatToken":"[\w-]+\.[\w-]+"\}/);
      expect(stdout).toContain(
        '{"code":"license.not_found","message":"No license with this key","status":404}',
      );
      expect(stdout).toMatch(/"hwFingerprint":"my-laptop","machineName":"Laptop","status":"active"/);
      // The quick start's two lines, from the license file the panel wrote.
      expect(stdout.endsWith("license: Invalid -> Active\nActive marker-valid true\n"), stdout).toBe(true);
      const [key, publicKey] = /(SVC(?:-[0-9A-Z]{5}){5}) ([0-9a-f]{64})\n/.exec(stdout)!.slice(1);
      expect(readFileSync(join(dir, "walkthrough", `${key}.lic`), "utf8")).toContain(publicKey);
      keys.push(key!);
    }
    expect(new Set(keys).size).toBe(2);
  }, 180_000);
});
