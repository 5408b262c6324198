import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STEP_SPECS } from "./scenario/steps.ts";

const BIN = fileURLToPath(new URL("../bin/licensing-sim.js", import.meta.url));
// A run starts the server in a new process: an embedded PostgreSQL (PGlite) takes seconds to boot, many
// more on a loaded machine.
const RUN_TIMEOUT_MS = 180_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `licensing-sim …` as a real process, as QA and CI run it. */
function sim(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, NO_COLOR: "", ...env }, timeout: RUN_TIMEOUT_MS, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("licensing-sim (a real subprocess)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "licensing-sim-cli-"));
    await writeFile(
      join(dir, "a-passes.yaml"),
      `name: Grace after the marker
license: { offlineDays: 2 }
steps:
  - start
  - offline
  - advance to marker-exp
  - expect status GracePeriod
`,
    );
    await writeFile(
      join(dir, "b-fails.yaml"),
      `name: A wrong expectation
steps:
  - start
  - expect status Expired
`,
    );
    await writeFile(join(dir, "bad.yml"), "name: Typo\nsteps:\n  - start\n  - advnce 3d\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("--help documents every step", async () => {
    const { code, stdout } = await sim(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^licensing-sim: QA scenarios/);
    for (const spec of STEP_SPECS) expect(stdout).toContain(`  ${spec.usage}\n`);
    expect(stdout).toContain("--server-url");
    expect(stdout).toContain("--report");
  });

  it("a bad scenario file exits 2 with its file and line, before running anything", async () => {
    const { code, stdout, stderr } = await sim(["run", join(dir, "bad.yml")]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `licensing-sim: ${join(dir, "bad.yml")}:4: unknown step "advnce" (licensing-sim --help lists the steps)\n`,
    );
  });

  it("bad options exit 2", async () => {
    expect((await sim(["run", "--token", "svc_pat_x", join(dir, "a-passes.yaml")])).stderr).toContain(
      "--token and --template-id go with --server-url",
    );
    expect((await sim(["run"])).code).toBe(2);
    expect((await sim(["fly"])).stderr).toContain('unknown command "fly"');
  });

  it(
    "runs a folder: a timeline per scenario, a failed expectation exits 1, --report writes the HTML",
    async () => {
      const report = join(dir, "report.html");
      const { code, stdout, stderr } = await sim([
        "run",
        dir.concat("/a-passes.yaml"),
        join(dir, "b-fails.yaml"),
        "--report",
        report,
      ]);
      expect(stderr).toBe("");
      expect(code).toBe(1);
      expect(stdout).not.toContain("\x1b["); // not a terminal: no colours
      expect(stdout).toContain("▶ Grace after the marker");
      expect(stdout).toMatch(
        /T\+2d\s+2026-01-03 00:00:00\s+↳ Active → GracePeriod\s+GracePeriod\s+marker-expired/,
      );
      expect(stdout).toMatch(/✓ T\+2d\s+2026-01-03 00:00:00\s+expect status GracePeriod/);
      expect(stdout).toMatch(
        /✗ T\+0s\s+2026-01-01 00:00:00\s+expect status Expired\s+Active\s+marker-valid\s+expected Expired, got Active \(marker-valid\)/,
      );
      expect(stdout).toContain(`1 of 2 scenarios failed: ${join(dir, "b-fails.yaml")}`);
      const html = await readFile(report, "utf8");
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).not.toMatch(/<script|<link|src="http/); // self-contained
      expect(html).toContain("Grace after the marker");
      expect(html).toContain("<svg");
      expect(html).toContain("<title>Active: T+0s → T+2d</title>");
      expect(html).toMatch(/<rect [^>]*fill="#e0a21b"><title>GracePeriod: T\+2d → end<\/title>/);
      expect(html).toContain("1 failed");
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "--json prints the results only, and exits 0 when every expectation holds",
    async () => {
      const { code, stdout } = await sim(["run", join(dir, "a-passes.yaml"), "--json"]);
      expect(code).toBe(0);
      const json = JSON.parse(stdout);
      expect(json.ok).toBe(true);
      expect(json.scenarios).toHaveLength(1);
      const [scenario] = json.scenarios;
      expect(scenario).toMatchObject({
        name: "Grace after the marker",
        mode: "local",
        ok: true,
        failures: 0,
      });
      expect(scenario.events.find((e: { kind: string }) => e.kind === "transition")).toMatchObject({
        at: "2026-01-03T00:00:00.000Z",
        step: "Active → GracePeriod",
        status: "GracePeriod",
        reason: "marker-expired",
      });
    },
    RUN_TIMEOUT_MS,
  );
});
