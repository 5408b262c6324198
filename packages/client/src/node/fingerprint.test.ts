import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  collectFingerprintSources,
  defaultComponents,
  defaultFingerprint,
  fingerprintComponents,
  fingerprintOf,
  fingerprintSources,
  fingerprintWithFallback,
  isStableMac,
  memorySizeBucket,
  type FingerprintProbe,
  type FingerprintSources,
} from "./fingerprint.ts";

const run = promisify(execFile);
const moduleUrl = new URL("./fingerprint.ts", import.meta.url).href;

/** A machine described by its files, links and commands; anything not listed fails as a missing file does. */
function probe(
  machine: Partial<FingerprintProbe> & {
    files?: Record<string, string>;
    dirs?: Record<string, string[]>;
    links?: Record<string, string>;
  },
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
    readlink: (path) =>
      machine.links?.[path] !== undefined ? Promise.resolve(machine.links[path]) : missing(path),
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
      osFamily: "debian",
      cpuModel: null,
      memorySize: null,
      diskId: null,
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
    expect(broken).toEqual({
      machineName: null,
      osDescription: null,
      macAddress: null,
      machineId: null,
      osFamily: null,
      cpuModel: null,
      memorySize: null,
      diskId: null,
    });
    expect(fingerprintComponents(broken)).toEqual({});
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

  it("the CPU model, the memory size bucket and the system disk, each read on its own", async () => {
    const linux = await collectFingerprintSources(
      probe({
        cpus: () => [{ model: "  Intel(R) Core(TM)   i7-8650U CPU @ 1.90GHz " }, { model: "other" }],
        totalmem: () => 15.5 * 1024 ** 3,
        files: {
          "/proc/self/mountinfo":
            "22 27 0:21 / /proc rw - proc proc rw\n27 1 259:2 / / rw,relatime - ext4 /dev/nvme0n1p2 rw\n",
          "/sys/class/block/nvme0n1p2/partition": "2\n",
        },
        dirs: {
          "/dev/disk/by-id": [
            "nvme-eui.0025385b71b07e2f",
            "nvme-Samsung_SSD_970_S4EWNX0N123456X",
            "nvme-Samsung_SSD_970_S4EWNX0N123456X-part2",
          ],
        },
        links: {
          "/sys/dev/block/259:2": "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p2",
          "/sys/class/block/nvme0n1p2": "../../devices/pci0000:00/0000:00:1d.0/nvme/nvme0/nvme0n1/nvme0n1p2",
          "/dev/disk/by-id/nvme-eui.0025385b71b07e2f": "../../nvme0n1",
          "/dev/disk/by-id/nvme-Samsung_SSD_970_S4EWNX0N123456X": "../../nvme0n1",
          "/dev/disk/by-id/nvme-Samsung_SSD_970_S4EWNX0N123456X-part2": "../../nvme0n1p2",
        },
      }),
    );
    expect(linux).toMatchObject({
      cpuModel: "intel(r) core(tm) i7-8650u cpu @ 1.90ghz",
      memorySize: "16gib",
      diskId: "id:nvme-samsung_ssd_970_s4ewnx0n123456x",
    });

    // Root on a device mapper (LVM, LUKS) over a virtio disk with no udev names: sysfs's serial. Without
    // one either, the root file system's UUID.
    const mapped = {
      files: {
        "/proc/self/mountinfo": "27 1 253:0 / / rw - ext4 /dev/mapper/vg-root rw\n",
        "/sys/class/block/vda2/partition": "2\n",
      } as Record<string, string>,
      dirs: { "/sys/class/block/dm-0/slaves": ["vda2"], "/dev/disk/by-uuid": ["2F1C-0A9B", "0d2e…"] },
      links: {
        "/sys/dev/block/253:0": "../../devices/virtual/block/dm-0",
        "/sys/class/block/vda2": "../../devices/pci0000:00/0000:00:04.0/virtio2/block/vda/vda2",
        "/dev/disk/by-uuid/2F1C-0A9B": "../../dm-0",
      },
    };
    expect(
      (
        await collectFingerprintSources(
          probe({ ...mapped, files: { ...mapped.files, "/sys/class/block/vda/serial": "QM00001\n" } }),
        )
      ).diskId,
    ).toBe("serial:qm00001");
    expect((await collectFingerprintSources(probe(mapped))).diskId).toBe("uuid:2f1c-0a9b");

    const windows = await collectFingerprintSources(
      probe({
        platform: "win32",
        release: () => "10.0.22631",
        exec: async (file, args) => {
          if (file === "cmd") {
            expect(args).toEqual(["/d", "/c", "vol", "%SystemDrive%"]);
            return " Volume in drive C has no label.\r\n Volume Serial Number is 1A2B-3C4D\r\n";
          }
          throw new Error("no such command");
        },
      }),
    );
    expect(windows).toMatchObject({ osFamily: "windows", diskId: "volume:1a2b-3c4d" });
    const mac = await collectFingerprintSources(
      probe({
        platform: "darwin",
        release: () => "23.4.0",
        exec: async (file, args) => {
          if (file !== "diskutil" || args[1] !== "/System/Volumes/Data") throw new Error("no");
          return "   Volume Name:              Data\n   Volume UUID:              0A81F3B1-51D9-3335-B3E3-169C3640360D\n";
        },
      }),
    );
    expect(mac).toMatchObject({ osFamily: "darwin", diskId: "volume:0a81f3b1-51d9-3335-b3e3-169c3640360d" });
  });

  it("a source that throws is left out, never a throw", async () => {
    const sources = await collectFingerprintSources(
      probe({
        cpus: () => {
          throw new Error("no cpus");
        },
        totalmem: () => Number.NaN,
        files: { "/proc/self/mountinfo": "27 1 8:2 / / rw - ext4 /dev/sda2 rw\n" },
        readlink: () => {
          throw new Error("sync throw");
        },
      }),
    );
    expect(sources).toMatchObject({
      cpuModel: null,
      memorySize: null,
      diskId: null,
      machineName: "build-box",
    });
  });

  it("memory is rounded up to a power of two GiB", () => {
    const GiB = 1024 ** 3;
    expect([0.9, 1, 1.01, 7.7, 8, 12, 15.5, 31.3, 64].map((g) => memorySizeBucket(g * GiB))).toEqual([
      "1gib",
      "1gib",
      "2gib",
      "8gib",
      "8gib",
      "16gib",
      "16gib",
      "32gib",
      "64gib",
    ]);
    expect(memorySizeBucket(0)).toBeNull();
  });

  it("version 1 is the fingerprint as it always was; version 2 leaves the OS version out", () => {
    const machine: FingerprintSources = {
      machineName: "build-box",
      osDescription: "debian 12",
      macAddress: "3c:22:fb:aa:bb:cc",
      machineId: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
      osFamily: "debian",
      cpuModel: "amd epyc",
      memorySize: "16gib",
      diskId: "serial:x",
    };
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    expect(fingerprintOf(machine)).toBe(
      sha(
        "licensing-fingerprint/1\nmachineName=build-box\nosDescription=debian 12\nmacAddress=3c:22:fb:aa:bb:cc\nmachineId=0f1e2d3c4b5a69788796a5b4c3d2e1f0",
      ),
    );
    expect(fingerprintOf(machine, 2)).toBe(
      sha(
        "licensing-fingerprint/2\nmachineName=build-box\nosFamily=debian\nmacAddress=3c:22:fb:aa:bb:cc\nmachineId=0f1e2d3c4b5a69788796a5b4c3d2e1f0",
      ),
    );
    // A major upgrade, and new hardware besides the fingerprint's sources.
    const upgraded = { ...machine, osDescription: "debian 13", cpuModel: "other", diskId: null };
    expect(fingerprintOf(upgraded)).not.toBe(fingerprintOf(machine));
    expect(fingerprintOf(upgraded, 2)).toBe(fingerprintOf(machine, 2));

    expect(fingerprintComponents(machine)).toEqual({
      "machine-id": "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
      "cpu-model": "amd epyc",
      "memory-size": "16gib",
      "disk-id": "serial:x",
      "mac-address": "3c:22:fb:aa:bb:cc",
      "host-name": "build-box",
      "os-family": "debian",
    });
    expect(Object.values(fingerprintComponents(upgraded))).not.toContain("debian 13");
  });

  it("this machine's components are its sources, by kind", async () => {
    const sources = await fingerprintSources();
    expect(await defaultComponents()).toEqual(fingerprintComponents(sources));
    expect(await defaultFingerprint({ fingerprintVersion: 2 })).toBe(fingerprintOf(sources, 2));
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
