import { fingerprintComponents, isStableMac } from "@licensing/client";
import { describe, expect, it } from "vitest";
import { COMPONENT_KINDS, Machine, MachineError } from "./machine.ts";

/** The kinds whose values differ between two component maps. */
const changedKinds = (before: Record<string, string>, after: Record<string, string>) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]).sort();

describe("Machine", () => {
  it("has every source the SDK reads: the SDK sends all seven components, the kinds the steps name", () => {
    const machine = new Machine("office-pc");
    expect(Object.keys(fingerprintComponents(machine.sources)).sort()).toEqual([...COMPONENT_KINDS].sort());
    expect(machine.sources.machineName).toBe("office-pc");
    expect(isStableMac(machine.sources.macAddress!)).toBe(true);
    expect(machine.fingerprint(2)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("derives the same hardware from the same name, and another machine shares only CPU, memory and OS", () => {
    expect(new Machine("office-pc").sources).toEqual(new Machine("office-pc").sources);
    const office = new Machine("office-pc").components();
    const laptop = new Machine("home-laptop").components();
    expect(changedKinds(office, laptop)).toEqual(["disk-id", "host-name", "mac-address", "machine-id"]);
    expect(new Machine("office-pc").fingerprint(2)).not.toBe(new Machine("home-laptop").fingerprint(2));
  });

  it("a changed component changes that component alone, and the fingerprint only for its sources", () => {
    for (const kind of COMPONENT_KINDS) {
      const machine = new Machine("office-pc");
      const before = machine.components();
      const fingerprint = machine.fingerprint(2);
      const value = machine.change(kind, null);
      expect(machine.value(kind)).toBe(value);
      expect(changedKinds(before, machine.components())).toEqual([kind]);
      const inFingerprint = ["host-name", "os-family", "mac-address", "machine-id"].includes(kind);
      expect(machine.fingerprint(2) !== fingerprint).toBe(inFingerprint);
    }
  });

  it("each change gives a new value; a value can be given", () => {
    const machine = new Machine("office-pc");
    const first = machine.change("disk-id", null);
    const second = machine.change("disk-id", null);
    expect(new Set([first, second]).size).toBe(2);
    expect(machine.change("memory-size", "64gib")).toBe("64gib");
    expect(machine.change("memory-size", null)).toBe("128gib");
    expect(() => machine.change("memory-size", "128gib")).toThrow(/is 128gib already/);
  });

  it("an OS major upgrade changes the version 1 fingerprint only; a reinstall changes the machine id", () => {
    const machine = new Machine("office-pc");
    const [v1, v2, components] = [machine.fingerprint(1), machine.fingerprint(2), machine.components()];
    expect(machine.upgradeOs(null)).toBe("debian 13");
    expect(machine.upgradeOs(15)).toBe("debian 15");
    expect(machine.fingerprint(1)).not.toBe(v1);
    expect(machine.fingerprint(2)).toBe(v2);
    expect(machine.components()).toEqual(components);
    expect(() => machine.upgradeOs(15)).toThrow(MachineError);

    machine.reinstall();
    expect(changedKinds(components, machine.components())).toEqual(["machine-id"]);
  });

  it("removes and adds components, but keeps one fingerprint source", () => {
    const machine = new Machine("office-pc");
    machine.remove("disk-id");
    expect(machine.components()["disk-id"]).toBeUndefined();
    expect(() => machine.remove("disk-id")).toThrow(/has no disk-id/);
    expect(() => machine.change("disk-id", null)).toThrow(/add-component disk-id/);
    machine.add("disk-id", "id:ata-new");
    expect(machine.components()["disk-id"]).toBe("id:ata-new");
    expect(() => machine.add("disk-id", null)).toThrow(/change-component disk-id/);

    machine.remove("os-family");
    expect(machine.sources.osDescription).toBeNull();
    expect(() => machine.upgradeOs(null)).toThrow(/OS cannot be read/);
    machine.remove("host-name");
    machine.remove("mac-address");
    expect(() => machine.remove("machine-id")).toThrow(/last fingerprint source/);
    machine.add("os-family", null);
    expect(machine.sources).toMatchObject({ osFamily: "windows", osDescription: "windows 12" });
  });
});
