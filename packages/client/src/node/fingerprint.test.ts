import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  collectFingerprintSources,
  defaultFingerprint,
  fingerprintOf,
  fingerprintSources,
  fingerprintWithFallback,
  isStableMac,
  type FingerprintProbe,
} from "./fingerprint.ts";

const run = promisify(execFile);
const moduleUrl = new URL("./fingerprint.ts", import.meta.url).href;

/** A machine described by its files and commands; anything not listed fails as a missing file does. */
function probe(
  machine: Partial<FingerprintProbe> & { files?: Record<string, string>; dirs?: Record<string, string[]> },
): FingerprintProbe {
  const missing = (path: string) =>
    Promise.reject(Object.assign(new Error(`ENOENT ${path}`), { code: "ENOENT" }));
  return {
    platform: "linux",
    hostname: () => "Build-Box",
    release: () => "6.1.0-18-amd64",
    networkInterfaces: () => ({}),
    readFile: (path) =>
      machine.files?.[path] !== undefined ? Promise.resolve(machine.files[path]) : missing(path),
    readdir: (path) => (machine.dirs?.[path] ? Promise.resolve(machine.dirs[path]) : missing(path)),
    exists: async (path) => machine.files?.[path] !== undefined,
    exec: () => Promise.reject(new Error("no such command")),
    ...machine,
  };
}

describe("defaultFingerprint", () => {
  it("is 64 hex characters, the same in two separate processes and in this one", async () => {
    const script = `import(${JSON.stringify(moduleUrl)}).then(async (m) => console.log(await m.defaultFingerprint()))`;
    const child = () =>
      run(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: process.cwd() });
    const [first, second] = await Promise.all([child(), child()]);
    const mine = await defaultFingerprint();
    expect(mine).toMatch(/^[0-9a-f]{64}$/);
    expect(first.stdout.trim()).toBe(mine);
    expect(second.stdout.trim()).toBe(mine);
    expect(fingerprintOf(await fingerprintSources())).toBe(mine);
  });

  it("Linux: os-release family and major version, the burned-in MAC of hardware, the machine id", async () => {
    const sources = await collectFingerprintSources(
      probe({
        files: {
          "/etc/os-release": 'NAME="Debian GNU/Linux"\nID=debian\nVERSION_ID="12"\n',
          "/etc/machine-id": "0f1e2d3c4b5a69788796a5b4c3d2e1f0\n",
          "/sys/class/net/wlp2s0/device": "",
          "/sys/class/net/wlp2s0/address": "3c:22:fb:aa:bb:cc\n",
          "/sys/class/net/wlp2s0/addr_assign_type": "0\n",
          "/sys/class/net/enp3s0/device": "",
          "/sys/class/net/enp3s0/address": "a8:5e:45:00:11:22\n",
          "/sys/class/net/enp3s0/addr_assign_type": "0\n",
          // A randomised MAC on hardware, and virtual interfaces without a device.
          "/sys/class/net/wlan1/device": "",
          "/sys/class/net/wlan1/address": "12:34:56:78:9a:bc\n",
          "/sys/class/net/wlan1/addr_assign_type": "1\n",
          "/sys/class/net/docker0/address": "02:42:ac:11:00:02\n",
        },
        dirs: { "/sys/class/net": ["lo", "docker0", "wlan1", "wlp2s0", "enp3s0"] },
      }),
    );
    expect(sources).toEqual({
      machineName: "build-box",
      osDescription: "debian 12",
      macAddress: "3c:22:fb:aa:bb:cc",
      machineId: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    });
  });

  it("Windows and macOS: the machine id from the registry and from ioreg", async () => {
    const windows = await collectFingerprintSources(
      probe({
        platform: "win32",
        release: () => "10.0.22631",
        exec: async (file) => {
          expect(file).toBe("reg");
          return "\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography\r\n    MachineGuid    REG_SZ    6F2B1C3A-0000-4E5F-9A8B-1C2D3E4F5A6B\r\n";
        },
        networkInterfaces: () => ({
          "vEthernet (Default Switch)": [{ mac: "00:15:5d:01:02:03", internal: false } as never],
          Ethernet: [{ mac: "a8:5e:45:00:11:22", internal: false } as never],
        }),
      }),
    );
    expect(windows).toMatchObject({
      osDescription: "windows 10",
      macAddress: "a8:5e:45:00:11:22",
      machineId: "6f2b1c3a-0000-4e5f-9a8b-1c2d3e4f5a6b",
    });
    const mac = await collectFingerprintSources(
      probe({
        platform: "darwin",
        release: () => "23.4.0",
        exec: async () => '  "IOPlatformUUID" = "A1B2C3D4-E5F6-4789-9ABC-DEF012345678"\n',
      }),
    );
    expect(mac).toMatchObject({
      osDescription: "darwin 23",
      machineId: "a1b2c3d4-e5f6-4789-9abc-def012345678",
    });
  });

  it("skips what fails, never throws, and with nothing at all uses an install id kept beside the license", async () => {
    const broken = await collectFingerprintSources(
      probe({
        hostname: () => {
          throw new Error("no host name");
        },
        release: () => "",
        networkInterfaces: () => {
          throw new Error("no interfaces");
        },
      }),
    );
    expect(broken).toEqual({ machineName: null, osDescription: null, macAddress: null, machineId: null });
    expect(fingerprintOf(broken)).toBeNull();
    const dir = await mkdtemp(join(tmpdir(), "licensing-fp-"));
    try {
      const file = join(dir, ".licensing-install-id");
      const fingerprint = await fingerprintWithFallback(broken, file);
      expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect((await readFile(file, "utf8")).trim()).toMatch(/^[0-9a-f-]{36}$/);
      expect(await fingerprintWithFallback(broken, file)).toBe(fingerprint);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a stable MAC is unicast and universally administered", () => {
    expect(isStableMac("a8:5e:45:00:11:22")).toBe(true);
    for (const mac of [
      "00:00:00:00:00:00",
      "02:42:ac:11:00:02",
      "12:34:56:78:9a:bc",
      "01:00:5e:00:00:01",
      "nope",
    ]) {
      expect(isStableMac(mac), mac).toBe(false);
    }
  });
});
