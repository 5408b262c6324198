import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { findBrowser, findOnPath, needTool, SKIP_LINE, type Tool } from "./index.ts";

const root = mkdtempSync(join(tmpdir(), "licensing-tools-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An executable file at `dir/name` (or a plain one with `mode: 0o644`). */
function program(dir: string, name: string, mode = 0o755) {
  mkdirSync(join(root, dir), { recursive: true });
  const path = join(root, dir, name);
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, mode);
  return path;
}

describe("findBrowser", () => {
  const a = program("a", "chromium");
  const b = program("b", "google-chrome");
  const named = program("named", "my-chrome");
  const linux = { platform: "linux" as const };

  it("takes CHROMIUM_PATH, then CHROME_PATH, before anything on PATH", () => {
    const PATH = [join(root, "a"), join(root, "b")].join(":");
    expect(findBrowser({ ...linux, env: { PATH, CHROMIUM_PATH: named, CHROME_PATH: b } })).toBe(named);
    expect(findBrowser({ ...linux, env: { PATH, CHROME_PATH: named } })).toBe(named);
  });

  it("then chromium, chromium-browser and google-chrome on PATH, in that order", () => {
    expect(findBrowser({ ...linux, env: { PATH: [join(root, "b"), join(root, "a")].join(":") } })).toBe(a);
    expect(findBrowser({ ...linux, env: { PATH: join(root, "b") } })).toBe(b);
  });

  it("skips a file that is not executable, and finds nothing on an empty PATH", () => {
    program("c", "chromium", 0o644);
    expect(findBrowser({ ...linux, env: { PATH: join(root, "c") } })).toBeNull();
    expect(findBrowser({ ...linux, env: {} })).toBeNull();
  });

  it("looks in the macOS application bundles and the Windows installations", () => {
    const seen: string[] = [];
    const nothing = (path: string) => (seen.push(path), false);
    expect(
      findBrowser({ platform: "darwin", env: { HOME: "/Users/ada" }, isExecutable: nothing }),
    ).toBeNull();
    expect(seen).toEqual([
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
      "/Users/ada/Applications/Chromium.app/Contents/MacOS/Chromium",
      "/Users/ada/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    ]);
    const chrome = "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe";
    const windows = {
      platform: "win32" as const,
      env: { LOCALAPPDATA: "C:\\Users\\ada\\AppData\\Local", PROGRAMFILES: "C:\\Program Files" },
      isExecutable: (path: string) => path === chrome,
    };
    expect(findBrowser(windows)).toBe(chrome);
  });

  it("refuses a variable that names no executable, rather than skip as if none were set", () => {
    expect(() => findBrowser({ ...linux, env: { CHROMIUM_PATH: join(root, "nowhere") } })).toThrow(
      `CHROMIUM_PATH=${join(root, "nowhere")} is not an executable file`,
    );
  });
});

describe("findOnPath", () => {
  it("finds a program in the folders of PATH, in their order", () => {
    const first = program("p1", "tool");
    program("p2", "tool");
    expect(
      findOnPath(["tool"], {
        env: { PATH: [join(root, "p2x"), join(root, "p1"), join(root, "p2")].join(":") },
      }),
    ).toBe(first);
    expect(findOnPath(["tool"], { env: { PATH: join(root, "p3") } })).toBeNull();
  });
});

describe("needTool", () => {
  const tool = (found: string | null): Tool => ({
    name: "frobnicator",
    lookedAt: "PATH",
    enable: "apt-get install frobnicator",
    requiredBy: "REQUIRE_TOOLS",
    find: () => found,
  });
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  afterEach(() => warn.mockClear());

  it("gives the tool's path, and says nothing, when the machine has it", () => {
    expect(needTool(tool("/usr/bin/frob"), "the frobnication tests", {})).toBe("/usr/bin/frob");
    expect(warn).not.toHaveBeenCalled();
  });

  it("without it: null, after one line saying what is skipped and how to enable it", () => {
    expect(needTool(tool(null), "the frobnication tests", {})).toBeNull();
    expect(warn.mock.calls).toEqual([
      [
        `${SKIP_LINE}the frobnication tests: frobnicator not found (looked at PATH). To enable: apt-get install frobnicator. REQUIRE_TOOLS=1 makes this a failure.`,
      ],
    ]);
  });

  it("fails instead when its variable requires it", () => {
    expect(() => needTool(tool(null), "the frobnication tests", { REQUIRE_TOOLS: "1" })).toThrow(
      "REQUIRE_TOOLS=1: frobnicator not found (looked at PATH), needed by the frobnication tests. To get it: apt-get install frobnicator.",
    );
    expect(warn).not.toHaveBeenCalled();
    // Another tool's variable does not.
    expect(needTool(tool(null), "the frobnication tests", { REQUIRE_BROWSER: "1" })).toBeNull();
  });
});
