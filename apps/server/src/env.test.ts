import { describe, expect, it } from "vitest";
import { EnvError, parseEnv, shutdownDrainSeconds } from "./env.ts";

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    expect(parseEnv({})).toMatchObject({
      PORT: 3000,
      DATA_DIR: "./.data",
      LICENSING_MAX_OFFLINE_DAYS: 30,
      LICENSING_DEFAULT_TRIAL_DAYS: 14,
      LICENSING_HEARTBEAT_INTERVAL_SECONDS: 900,
      HEARTBEAT_RETENTION_DAYS: 400,
      SESSION_MAX_AGE_DAYS: 30,
      RATE_LIMIT_PANEL: 300,
      RATE_LIMIT_AUTH: 20,
      RATE_LIMIT_CLIENT: 100,
      CLIENT_SIGNATURE_MIN_VERSION: "v1",
      LOG_LEVEL: "info",
      WEBHOOK_POLL_INTERVAL_SECONDS: 15,
      WEBHOOK_ALLOW_PRIVATE: false,
      DATABASE_READ_MAX_LAG_SECONDS: 5,
    });
    expect(parseEnv({}).DATABASE_READ_URL).toBeUndefined();
    expect(parseEnv({ CLIENT_SIGNATURE_MIN_VERSION: "v2" }).CLIENT_SIGNATURE_MIN_VERSION).toBe("v2");
  });

  it("reads WEBHOOK_ALLOW_PRIVATE as true or false only", () => {
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE: "true" }).WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(parseEnv({ WEBHOOK_ALLOW_PRIVATE: "false" }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
  });

  it("treats empty strings as unset and coerces numbers and TRUST_PROXY", () => {
    const env = parseEnv({ PORT: "8080", DATABASE_URL: "", TRUST_PROXY: "1", RATE_LIMIT_CLIENT: "5000" });
    expect(env).toMatchObject({ PORT: 8080, TRUST_PROXY: 1, RATE_LIMIT_CLIENT: 5000 });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(parseEnv({ TRUST_PROXY: "true" }).TRUST_PROXY).toBe(true);
    expect(parseEnv({ TRUST_PROXY: "loopback" }).TRUST_PROXY).toBe("loopback");
  });

  it.each([
    ["PORT", "not-a-port"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["REDIS_URL", "http://localhost"],
    ["PUBLIC_BASE_URL", "ftp://example.com"],
    ["LICENSING_MASTER_KEY", "too-short"],
    ["LICENSING_MAX_OFFLINE_DAYS", "0"],
    ["RATE_LIMIT_AUTH", "-1"],
    ["HEARTBEAT_RETENTION_DAYS", "0"],
    ["HEARTBEAT_RETENTION_DAYS", "a year"],
    ["SESSION_MAX_AGE_DAYS", "0"],
    ["SESSION_MAX_AGE_DAYS", "30.5"],
    ["SMTP_URL", "not a url"],
    ["LOG_LEVEL", "loud"],
    ["WEBHOOK_POLL_INTERVAL_SECONDS", "0"],
    ["WEBHOOK_ALLOW_PRIVATE", "yes"],
    ["CLIENT_SIGNATURE_MIN_VERSION", "v3"],
    ["LICENSING_ALLOW_GENERATED_MASTER_KEY", "yes"],
    ["METRICS_TOKEN", "short"],
    ["DATABASE_READ_URL", "mysql://replica/db"],
    ["DATABASE_READ_MAX_LAG_SECONDS", "0"],
  ])("names %s when its value %j is bad", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(EnvError);
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(`^Invalid configuration:\\n  ${name}: `));
  });

  it("takes a read replica only beside a PostgreSQL primary", () => {
    expect(() => parseEnv({ DATABASE_READ_URL: "postgres://replica/licensing" })).toThrow(
      /DATABASE_READ_URL: a read replica needs the primary's DATABASE_URL/,
    );
    const env = parseEnv({
      DATABASE_URL: "postgres://primary/licensing",
      DATABASE_READ_URL: "postgres://replica/licensing",
      DATABASE_READ_MAX_LAG_SECONDS: "10",
    });
    expect(env).toMatchObject({
      DATABASE_READ_URL: "postgres://replica/licensing",
      DATABASE_READ_MAX_LAG_SECONDS: 10,
    });
  });

  it("needs both bootstrap variables or neither, and a long enough password", () => {
    expect(() => parseEnv({ BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com" })).toThrow(
      /BOOTSTRAP_OPERATOR_PASSWORD/,
    );
    expect(() =>
      parseEnv({ BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com", BOOTSTRAP_OPERATOR_PASSWORD: "short" }),
    ).toThrow(/BOOTSTRAP_OPERATOR_PASSWORD: must be at least 8 characters/);
  });

  it("drains 5 s on SIGTERM on PostgreSQL and none on the embedded database, unless SHUTDOWN_DRAIN_SECONDS says", () => {
    const pg = { DATABASE_URL: "postgres://u:p@db:5432/licensing" };
    expect(shutdownDrainSeconds(parseEnv({}))).toBe(0);
    expect(shutdownDrainSeconds(parseEnv(pg))).toBe(5);
    expect(shutdownDrainSeconds(parseEnv({ ...pg, SHUTDOWN_DRAIN_SECONDS: "0" }))).toBe(0);
    expect(shutdownDrainSeconds(parseEnv({ SHUTDOWN_DRAIN_SECONDS: "12" }))).toBe(12);
    expect(() => parseEnv({ SHUTDOWN_DRAIN_SECONDS: "-1" })).toThrow(/SHUTDOWN_DRAIN_SECONDS:/);
    expect(() => parseEnv({ SHUTDOWN_DRAIN_SECONDS: "301" })).toThrow(/SHUTDOWN_DRAIN_SECONDS:/);
  });
});
