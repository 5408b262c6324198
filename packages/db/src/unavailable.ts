/**
 * Errors that mean "the database cannot be reached right now" (a restart, a fail-over, a network cut),
 * as opposed to an error in the statement. A request that meets one is answered 503 and may be retried;
 * nothing it began is committed unless its COMMIT was acknowledged.
 */

import { causes } from "./driver-errors.ts";

// SQLSTATE class 08 (connection exception) and the shutdown/start-up states of class 57.
const unavailableStates = /^(08...|57P01|57P02|57P03|53300)$/;
const socketCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
// node-postgres reports a lost or unusable connection with these messages and no code.
const driverMessages = [
  "Connection terminated",
  "connection error and is not queryable",
  "Client was closed and is not queryable",
  "timeout exceeded when trying to connect",
  "Connection terminated due to connection timeout",
];

function matches(error: object): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && (unavailableStates.test(code) || socketCodes.has(code))) return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" && driverMessages.some((m) => message.includes(m));
}

/** True when `error`, or an error it wraps (Drizzle wraps the driver's as `cause`), is a lost database. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of causes(error)) {
    if (matches(e)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnavailable(inner))) return true;
  }
  return false;
}
