import { isDeepStrictEqual } from "node:util";
import { valueAtPath, type LicenseClientCore } from "@licensing/client";
import type { ActivationResponse } from "@licensing/contracts";
import { MachineFingerprint, type Count, type ExpectTarget } from "../scenario/steps.ts";

export interface Checked {
  ok: boolean;
  message: string;
}

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

const COUNTED: Record<Count, (activations: ActivationResponse[]) => number> = {
  seats: (activations) => activations.filter((a) => a.status === "active").length,
  activations: (activations) => activations.length,
  heals: (activations) => activations.reduce((sum, a) => sum + a.heals.length, 0),
};

const isTime = (value: unknown): value is string =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));

/**
 * Equal as JSON values; a time written as ISO text matches an epoch-ms number, or ISO text of the same
 * instant (`2026-03-03T00:00:00Z` matches `2026-03-03T00:00:00.000Z`).
 */
export function matches(actual: unknown, expected: unknown): boolean {
  if (isTime(expected) && (typeof actual === "number" || isTime(actual)))
    return new Date(actual).getTime() === Date.parse(expected);
  return isDeepStrictEqual(actual ?? null, expected);
}

export interface ExpectContext {
  /** The running application's client; null when none runs. */
  client: LicenseClientCore | null;
  lastInitialize: boolean | null;
  /** The body of the server's last answer to this machine's activation; null before one. */
  lastActivation: unknown;
  /** The license as the server shows it (GET /licenses/{id}). */
  serverLicense(): Promise<Record<string, unknown>>;
  /** The license's activations (GET /licenses/{id}/activations). */
  serverActivations(): Promise<ActivationResponse[]>;
  /** A machine's fingerprint now, as its SDK computes it. */
  fingerprintOf(machine: string): string;
}

/** Checks one expectation against the running client (or the server); the message says what was found. */
export async function check(target: ExpectTarget, context: ExpectContext): Promise<Checked> {
  if (target.kind === "value" && target.value instanceof MachineFingerprint) {
    const { machine } = target.value;
    const checked = await check({ ...target, value: context.fingerprintOf(machine) }, context);
    return { ...checked, message: `${checked.message} (fingerprint(${machine}))` };
  }
  if (target.kind === "value" && target.source === "server") {
    const actual = valueAtPath(await context.serverLicense(), target.path);
    return verdict(actual, target.value, `server.${target.path}`);
  }
  if (target.kind === "count")
    return verdict(COUNTED[target.what](await context.serverActivations()), target.value, target.what);
  if (target.kind === "value" && target.source === "activation")
    return verdict(
      valueAtPath(context.lastActivation, target.path),
      target.value,
      `activation.${target.path}`,
    );
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
