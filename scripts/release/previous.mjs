#!/usr/bin/env node
// The release before HEAD, for the upgrade test: the newest `## [X.Y.Z] — date · commit H` of CHANGELOG.md
// whose commit is not HEAD. The tag vX.Y.Z names the same commit where the clone has tags; a clone without
// them (CI's clean clone of main may carry none) still finds the commit from the changelog.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { URL, fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const git = (...args) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();

/** Every release of the changelog, newest first. */
export function releases(changelog = readFileSync(`${root}/CHANGELOG.md`, "utf8")) {
  return [
    ...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] — (\d{4}-\d{2}-\d{2}) · commit ([0-9a-f]{7,40})$/gm),
  ].map(([, version, date, commit]) => ({ version, date, commit, tag: `v${version}` }));
}

/** The newest release that is not HEAD, with its full commit hash; throws when the clone lacks it. */
export function previousRelease() {
  const head = git("rev-parse", "HEAD");
  for (const release of releases()) {
    const commit = git("rev-parse", `${release.commit}^{commit}`);
    if (commit === head) continue;
    let tagged = null;
    try {
      tagged = git("rev-parse", `${release.tag}^{commit}`);
    } catch {
      // No tag in this clone: the changelog's commit is the release.
    }
    if (tagged && tagged !== commit) {
      throw new Error(`Tag ${release.tag} is ${tagged}, but CHANGELOG.md names ${commit}`);
    }
    return { ...release, commit };
  }
  throw new Error("CHANGELOG.md names no release before HEAD");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const release = previousRelease();
  process.stdout.write(
    `${process.argv.includes("--json") ? JSON.stringify(release) : `${release.tag} ${release.commit}`}\n`,
  );
}
