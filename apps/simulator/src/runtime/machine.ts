import { createHash } from "node:crypto";
import {
  fingerprintComponents,
  fingerprintOf,
  type FingerprintSources,
  type FingerprintVersion,
} from "@licensing/client";

/**
 * The components the SDK sends by default (`fingerprintComponents`), each with the fingerprint source it
 * is read from: the steps that change hardware name a component, and change its source.
 */
export const COMPONENT_SOURCES = {
  "machine-id": "machineId",
  "cpu-model": "cpuModel",
  "memory-size": "memorySize",
  "disk-id": "diskId",
  "mac-address": "macAddress",
  "host-name": "machineName",
  "os-family": "osFamily",
} as const satisfies Record<string, keyof FingerprintSources>;
export type ComponentKind = keyof typeof COMPONENT_SOURCES;
export const COMPONENT_KINDS = Object.keys(COMPONENT_SOURCES) as ComponentKind[];
export const isComponentKind = (kind: string): kind is ComponentKind =>
  Object.prototype.hasOwnProperty.call(COMPONENT_SOURCES, kind);

const DEFAULT_OS = { family: "debian", major: 12 };

const hex = (seed: string, length: number) =>
  createHash("sha256").update(`licensing-sim/${seed}`).digest("hex").slice(0, length);

/** A unicast, universally administered MAC (the only kind the SDK reads), from a seed. */
function macAddress(seed: string): string {
  const bytes = hex(seed, 12)
    .match(/../g)!
    .map((byte) => parseInt(byte, 16));
  bytes[0] = bytes[0]! & 0xfc;
  return bytes.map((byte) => byte.toString(16).padStart(2, "0")).join(":");
}

/**
 * What the SDK would read on a computer named `name`: its own machine id, network card and disk, and the
 * CPU, memory and OS of every simulated computer (the same model, the same system), so two machines share
 * three of their seven components.
 */
export function defaultSources(name: string): FingerprintSources {
  return {
    machineName: name.toLowerCase(),
    osDescription: `${DEFAULT_OS.family} ${DEFAULT_OS.major}`,
    osFamily: DEFAULT_OS.family,
    macAddress: macAddress(`${name}/mac-address`),
    machineId: hex(`${name}/machine-id`, 32),
    cpuModel: "simulated cpu 8 cores @ 3.20ghz",
    memorySize: "16gib",
    diskId: `id:ata-simulated_ssd_${hex(`${name}/disk-id`, 12)}`,
  };
}

/** The fingerprint sources, lines of the fingerprint in either version: a machine keeps at least one. */
const FINGERPRINT_SOURCES: Array<keyof FingerprintSources> = [
  "machineName",
  "osFamily",
  "macAddress",
  "machineId",
];

export class MachineError extends Error {}

/**
 * A simulated computer's hardware and system, as the fingerprint sources the SDK reads (its
 * `FingerprintSources`). The SDK derives the fingerprint (`fingerprintOf`) and the components
 * (`fingerprintComponents`) from them; the steps that change hardware change a source. The SDK reads its
 * machine once per process, so a change is seen by the next start.
 */
export class Machine {
  private sourceValues: FingerprintSources;
  private changes = 0;

  constructor(readonly name: string) {
    this.sourceValues = defaultSources(name);
  }

  /** What the SDK reads now (a copy: a running client keeps what it read at its start). */
  get sources(): FingerprintSources {
    return { ...this.sourceValues };
  }

  fingerprint(version: FingerprintVersion): string {
    return fingerprintOf(this.sourceValues, version)!;
  }

  components(): Record<string, string> {
    return fingerprintComponents(this.sourceValues);
  }

  value(kind: ComponentKind): string | null {
    return this.sourceValues[COMPONENT_SOURCES[kind]];
  }

  /** A part replaced (or the value given): the component's new value. */
  change(kind: ComponentKind, value: string | null): string {
    if (this.value(kind) === null)
      throw new MachineError(`this machine has no ${kind} to change: add-component ${kind} adds one`);
    const next = value ?? this.freshValue(kind);
    if (next === this.value(kind)) throw new MachineError(`${kind} is ${next} already`);
    this.set(kind, next);
    return next;
  }

  /** A part the SDK could not read becomes readable. */
  add(kind: ComponentKind, value: string | null): string {
    if (this.value(kind) !== null)
      throw new MachineError(`this machine has a ${kind} already: change-component ${kind} replaces it`);
    const next = value ?? this.freshValue(kind);
    this.set(kind, next);
    return next;
  }

  /** A part removed, or one the SDK can no longer read. */
  remove(kind: ComponentKind) {
    if (this.value(kind) === null) throw new MachineError(`this machine has no ${kind}`);
    const source = COMPONENT_SOURCES[kind];
    if (FINGERPRINT_SOURCES.every((name) => name === source || this.sourceValues[name] === null))
      throw new MachineError(
        `${kind} is the last fingerprint source left (host-name, os-family, mac-address, machine-id): the SDK would fall back to an install id`,
      );
    this.set(kind, null);
  }

  /** An OS major upgrade: the family stays, the major version changes. Returns the new description. */
  upgradeOs(major: number | null): string {
    const description = this.sourceValues.osDescription;
    if (description === null || this.sourceValues.osFamily === null)
      throw new MachineError("this machine's OS cannot be read (os-family was removed)");
    const current = Number(/\d+$/.exec(description)?.[0] ?? DEFAULT_OS.major);
    const next = major ?? current + 1;
    if (next === current) throw new MachineError(`the OS is at version ${current} already`);
    this.sourceValues.osDescription = `${this.sourceValues.osFamily} ${next}`;
    return this.sourceValues.osDescription;
  }

  /** The OS installed again: a new machine id on the same hardware. */
  reinstall(): string {
    const id = hex(`${this.name}/reinstall/${++this.changes}`, 32);
    this.sourceValues.machineId = id;
    return id;
  }

  private set(kind: ComponentKind, value: string | null) {
    if (kind === "os-family") {
      const major = /\d+$/.exec(this.sourceValues.osDescription ?? "")?.[0] ?? String(DEFAULT_OS.major);
      this.sourceValues.osFamily = value;
      this.sourceValues.osDescription = value === null ? null : `${value} ${major}`;
      return;
    }
    this.sourceValues[COMPONENT_SOURCES[kind]] = value;
  }

  /** A value the part has not had: each change gives another. */
  private freshValue(kind: ComponentKind): string {
    const seed = `${this.name}/${kind}/${++this.changes}`;
    switch (kind) {
      case "machine-id":
        return hex(seed, 32);
      case "cpu-model":
        return `simulated cpu ${hex(seed, 4)} 8 cores @ 3.20ghz`;
      case "memory-size": {
        const gib = parseInt(this.value(kind) ?? "8gib", 10);
        return `${gib * 2}gib`;
      }
      case "disk-id":
        return `id:ata-simulated_ssd_${hex(seed, 12)}`;
      case "mac-address":
        return macAddress(seed);
      case "host-name":
        return `${this.name.toLowerCase()}-${this.changes}`;
      case "os-family":
        return this.value(kind) === "windows" ? "debian" : "windows";
    }
  }
}
