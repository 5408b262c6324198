import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateSimulator, runScenarioFile } from "./scenario-runner.ts";

const appDir = fileURLToPath(new URL("../..", import.meta.url));
const DAY = 86_400_000;
const HOUR = 3_600_000;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "desktop-scenarios-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the QA panel's scenario runner", () => {
  it("finds licensing-sim from the app's folder, as the built app does from dist/main", () => {
    expect(locateSimulator(appDir)).toMatch(/apps[/\\]simulator[/\\]bin[/\\]licensing-sim\.js$/);
    expect(locateSimulator(join(appDir, "dist", "main"))).toBe(locateSimulator(appDir));
    expect(locateSimulator(tmpdir())).toBeNull();
  });

  // licensing-sim boots its own server (tsx, PGlite, migrations) in a child process: tens of seconds here.
  it(
    "runs a scenario file with the real simulator and returns its timeline",
    { timeout: 180_000 },
    async () => {
      const file = join(dir, "offline-grace.yaml");
      await writeFile(
        file,
        [
          "name: Offline past the marker, then grace, then expired",
          "license:",
          "  offlineDays: 7",
          "steps:",
          "  - start",
          "  - offline",
          "  - advance 7d1h",
          "  - expect status GracePeriod",
          "  - advance 1d",
          "  - expect status Expired",
          "",
        ].join("\n"),
      );
      const run = await runScenarioFile(file, { simulatorBin: locateSimulator(appDir) });
      expect(run).toMatchObject({
        name: "Offline past the marker, then grace, then expired",
        passed: true,
        error: null,
      });
      const steps = run.entries.filter((entry) => entry.kind === "step");
      expect(steps.map((entry) => [entry.line, entry.step, entry.status, entry.ok])).toEqual([
        [5, "start", "Active", true],
        [6, "offline", "Active", true],
        [7, "advance 7d1h", "GracePeriod", true],
        [8, "expect status GracePeriod", "GracePeriod", true],
        [9, "advance 1d", "Expired", true],
        [10, "expect status Expired", "Expired", true],
      ]);
      expect(steps[2]!.elapsedMs).toBe(7 * DAY + HOUR);
      expect(run.entries.filter((entry) => entry.kind === "transition").map((entry) => entry.status)).toEqual(
        ["GracePeriod", "Expired"],
      );
    },
  );

  it("a file that is no scenario comes back as the simulator's reason", { timeout: 60_000 }, async () => {
    const file = join(dir, "not-a-scenario.yaml");
    await writeFile(file, "just some text\n");
    const run = await runScenarioFile(file, { simulatorBin: locateSimulator(appDir) });
    expect(run).toMatchObject({ passed: false, entries: [], error: { code: "scenario.failed" } });
    expect(run.error!.message).toContain("not-a-scenario.yaml");
  });

  it("without the simulator (a packaged app) it says so", async () => {
    expect(await runScenarioFile(join(dir, "x.yaml"), { simulatorBin: null })).toMatchObject({
      passed: false,
      error: { code: "scenario.unavailable" },
    });
  });
});
