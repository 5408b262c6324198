import { isDeepStrictEqual } from "node:util";
import { valueAtPath, type LicenseClient } from "@licensing/client";
import type { ExpectTarget } from "../scenario/steps.ts";

export interface Checked {
  ok: boolean;
  message: string;
}

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** Equal as JSON values; a time written as ISO text matches an epoch-ms number. */
export function matches(actual: unknown, expected: unknown): boolean {
  if (typeof actual === "number" && typeof expected === "string" && /^\d{4}-\d{2}-\d{2}/.test(expected))
    return actual === Date.parse(expected);
  return isDeepStrictEqual(actual ?? null, expected);
}

export interface ExpectContext {
  /** The running application's client; null when none runs. */
  client: LicenseClient | null;
  lastInitialize: boolean | null;
  /** The license as the server shows it (GET /licenses/{id}). */
  serverLicense(): Promise<Record<string, unknown>>;
}

/** Checks one expectation against the running client (or the server); the message says what was found. */
export async function check(target: ExpectTarget, context: ExpectContext): Promise<Checked> {
  if (target.kind === "value" && target.source === "server") {
    const actual = valueAtPath(await context.serverLicense(), target.path);
    return verdict(actual, target.value, `server.${target.path}`);
  }
  const { client } = context;
  if (!client) return { ok: false, message: "no application is running: start it first" };
  switch (target.kind) {
    case "status": {
      const { status, reason } = client.statusDetails;
      return {
        ok: status === target.status,
        message:
          status === target.status
            ? `status ${status}`
            : `expected ${target.status}, got ${status} (${reason})`,
      };
    }
    case "usable":
      return verdict(client.isUsable, target.value, "usable");
    case "initialized":
      return verdict(context.lastInitialize, target.value, "initialize()");
    case "feature": {
      const has = client.hasFeature(target.name);
      return {
        ok: has === target.present,
        message: `feature ${target.name} ${has ? "present" : "absent"}${has === target.present ? "" : `, expected ${target.present ? "present" : "absent"}`}`,
      };
    }
    case "value": {
      const actual =
        target.source === "config"
          ? client.getConfig(target.path)
          : valueAtPath(target.source === "details" ? client.statusDetails : client.license, target.path);
      return verdict(actual, target.value, `${target.source}.${target.path}`);
    }
  }
}

function verdict(actual: unknown, expected: unknown, what: string): Checked {
  const ok = matches(actual, expected);
  return {
    ok,
    message: ok ? `${what} = ${show(actual)}` : `${what}: expected ${show(expected)}, got ${show(actual)}`,
  };
}
