import { isDeepStrictEqual } from "node:util";
import { valueAtPath, type LicenseClientCore } from "@licensing/client";
import type { ActivationResponse, LicenseLeaseResponse } from "@licensing/contracts";
import { MachineFingerprint, type Count, type ExpectTarget, type SignedFile } from "../scenario/steps.ts";
import type { OfflineExchange } from "./install.ts";

export interface Checked {
  ok: boolean;
  message: string;
}

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

const COUNTED: Record<Exclude<Count, "leases">, (activations: ActivationResponse[]) => number> = {
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
  /** The license's live leases (GET /licenses/{id}/leases). */
  serverLeases(): Promise<LicenseLeaseResponse[]>;
  /** A machine's fingerprint now, as its SDK computes it. */
  fingerprintOf(machine: string): string;
  /** The requests this machine's program made since the previous call (or the start); each call starts anew. */
  requestsSinceLastCheck(): number;
  /** This machine's air-gapped exchange. */
  offline: OfflineExchange;
  /**
   * The key that signed the file on disk: its number (1 is the root), or null with its id when the template
   * did not make it; null when there is no such file.
   */
  signerOf(file: SignedFile): Promise<{ key: number | null; kid: string } | null>;
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
    return target.what === "leases"
      ? verdict((await context.serverLeases()).length, target.value, "live leases")
      : verdict(COUNTED[target.what](await context.serverActivations()), target.value, target.what);
  if (target.kind === "requests")
    return verdict(context.requestsSinceLastCheck(), target.value, "requests since the last count");
  if (target.kind === "signer") {
    const signer = await context.signerOf(target.file);
    const found =
      signer === null
        ? `no ${target.file} on disk`
        : signer.key === null
          ? `a key the template did not make (${signer.kid})`
          : `key ${signer.key}${signer.key === 1 ? " (the root)" : ""}`;
    const ok = signer?.key === target.key;
    return {
      ok,
      message: ok
        ? `${target.file} signed by ${found}`
        : `${target.file}: expected key ${target.key}, got ${found}`,
    };
  }
  if (target.kind === "value" && target.source === "offline")
    return verdict(valueAtPath(context.offline, target.path), target.value, `offline.${target.path}`);
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
    case "holders": {
      // The machines holding the seats when this program found none; none while it holds one.
      const holders = valueAtPath(client.statusDetails, "holders");
      return verdict(Array.isArray(holders) ? holders.length : 0, target.value, "holders");
    }
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
