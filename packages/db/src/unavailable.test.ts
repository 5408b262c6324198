import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable.ts";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognizes a server shutting down, starting up or out of connections", () => {
    for (const code of ["57P01", "57P02", "57P03", "08006", "08001", "53300"])
      expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it("recognizes a refused or reset socket and node-postgres's lost-connection errors", () => {
    expect(isDatabaseUnavailable(withCode("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("ECONNRESET"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error("Client has encountered a connection error and is not queryable")),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    // Connecting to `localhost` tries ::1 and 127.0.0.1 and reports both.
    expect(isDatabaseUnavailable(new AggregateError([withCode("ECONNREFUSED")], "both refused"))).toBe(true);
  });

  it("looks through the wrapper Drizzle puts around the driver's error", () => {
    const wrapped = new Error("Failed query: select 1", { cause: withCode("57P01") });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it("leaves errors of the statement itself alone", () => {
    expect(isDatabaseUnavailable(withCode("23505", "duplicate key"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("22P02", "invalid input syntax"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: withCode("40001") }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
