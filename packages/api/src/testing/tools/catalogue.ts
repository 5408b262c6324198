import { findBrowser } from "./browser.ts";
import { findOnPath } from "./executables.ts";
import { findPostgresBinDir } from "./postgres.ts";

/** The variable that turns a missing tool from a skip into a failure (.ci/run sets both). */
export type RequiredBy = "REQUIRE_BROWSER" | "REQUIRE_TOOLS";

/**
 * Something a test needs that `npm install` does not bring: a program on the machine, or a service the
 * environment names.
 */
export interface Tool {
  /** What it is, in a sentence: "Chromium or Chrome". */
  name: string;
  /** Where it was looked for, shown when it is not found. */
  lookedAt: string;
  /** How to get it, shown when it is not found. */
  enable: string;
  requiredBy: RequiredBy;
  /** Its path (or URL), or null when this machine has none. */
  find(): string | null;
}

const onPath = (name: string) => () => findOnPath([name]);

/** Every tool a test may need, in one place (the README's "Tests and the tools they need" lists them). */
export const tools = {
  browser: {
    name: "Chromium or Chrome",
    lookedAt: "CHROMIUM_PATH, CHROME_PATH, PATH and the usual install folders",
    enable:
      "install Chromium (Debian/Ubuntu: apt-get install chromium) or Chrome, or set CHROMIUM_PATH to its executable",
    requiredBy: "REQUIRE_BROWSER",
    find: () => findBrowser(),
  },
  postgresServer: {
    name: "PostgreSQL's initdb and pg_ctl",
    lookedAt: "PATH and /usr/lib/postgresql/*/bin",
    enable: "install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql)",
    requiredBy: "REQUIRE_TOOLS",
    find: () => findPostgresBinDir(),
  },
  pgDump: {
    name: "pg_dump",
    lookedAt: "PATH",
    enable: "install PostgreSQL's client programs (Debian/Ubuntu: apt-get install postgresql-client)",
    requiredBy: "REQUIRE_TOOLS",
    find: onPath("pg_dump"),
  },
  redisServer: {
    name: "redis-server",
    lookedAt: "PATH",
    enable: "install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis)",
    requiredBy: "REQUIRE_TOOLS",
    find: onPath("redis-server"),
  },
  redis: {
    name: "Redis",
    lookedAt: "TEST_REDIS_URL",
    enable: "start Redis and set TEST_REDIS_URL=redis://127.0.0.1:6379",
    requiredBy: "REQUIRE_TOOLS",
    find: () => process.env.TEST_REDIS_URL || null,
  },
  bash: {
    name: "bash",
    lookedAt: "PATH",
    enable: "install bash",
    requiredBy: "REQUIRE_TOOLS",
    find: onPath("bash"),
  },
  curl: {
    name: "curl",
    lookedAt: "PATH",
    enable: "install curl",
    requiredBy: "REQUIRE_TOOLS",
    find: onPath("curl"),
  },
  openssl: {
    name: "openssl",
    lookedAt: "PATH",
    enable: "install OpenSSL's command line (Debian/Ubuntu: apt-get install openssl)",
    requiredBy: "REQUIRE_TOOLS",
    find: onPath("openssl"),
  },
} satisfies Record<string, Tool>;
