import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { access, readdir, readFile, readlink, writeFile } from "node:fs/promises";
import * as os from "node:os";

/**
 * The default machine fingerprint (spec §4 rule 2) and its components (issue 22). The fingerprint is SHA-256
 * over the machine name, the OS family (and, in version 1, its major version), the first stable MAC address
 * and the OS's machine id; each source is also sent on its own as a component, with the CPU model, the
 * memory size and the system disk, so that the server can recognise the machine after one of them changed.
 * Each input is chosen to survive reboots and updates; a source that fails is skipped; nothing here throws or
 * blocks the event loop.
 */
export interface FingerprintSources {
  /** The host name, lower case. */
  machineName: string | null;
  /** OS family and major version (`debian 12`, `darwin 23`, `windows 10`): not a build string. */
  osDescription: string | null;
  /** The lowest universally administered MAC of a physical interface (randomised MACs are skipped). */
  macAddress: string | null;
  /** `/etc/machine-id`, Windows `MachineGuid` or macOS `IOPlatformUUID`. */
  machineId: string | null;
  /** The OS family alone (`debian`, `windows`, `darwin`): `osDescription` without the version. */
  osFamily: string | null;
  /** The first CPU's model name, lower case, spaces collapsed. */
  cpuModel: string | null;
  /** The memory size rounded up to a power of two GiB (`16gib`), so the kernel's reservations change nothing. */
  memorySize: string | null;
  /**
   * The system disk or volume: Linux, the disk under `/` (`id:` its `/dev/disk/by-id` name, or `serial:`
   * from sysfs) or else its file system's UUID (`uuid:`); Windows, the system volume's serial number; macOS,
   * the data volume's UUID (`volume:`).
   */
  diskId: string | null;
}

/** Which fingerprint `fingerprintOf` computes: 1 includes the OS major version, 2 (new installs) does not. */
export type FingerprintVersion = 1 | 2;

/** What the sources are read through; tests pass their own. */
export interface FingerprintProbe {
  platform: NodeJS.Platform;
  hostname(): string;
  release(): string;
  networkInterfaces(): NodeJS.Dict<os.NetworkInterfaceInfo[]>;
  readFile(path: string): Promise<string>;
  readdir(path: string): Promise<string[]>;
  exists(path: string): Promise<boolean>;
  exec(file: string, args: string[]): Promise<string>;
  /** Absent from a probe: that source is not read. */
  cpus?(): Array<{ model: string }>;
  totalmem?(): number;
  readlink?(path: string): Promise<string>;
}

export const nodeProbe: FingerprintProbe = {
  platform: process.platform,
  hostname: os.hostname,
  release: os.release,
  networkInterfaces: os.networkInterfaces,
  readFile: (path) => readFile(path, "utf8"),
  readdir: (path) => readdir(path),
  exists: (path) =>
    access(path).then(
      () => true,
      () => false,
    ),
  exec: (file, args) =>
    new Promise((resolve, reject) =>
      execFile(file, args, { timeout: 3000, windowsHide: true, encoding: "utf8" }, (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      ),
    ),
  cpus: os.cpus,
  totalmem: os.totalmem,
  readlink: (path) => readlink(path),
};

const attempt = async <T>(read: () => Promise<T | null> | T | null): Promise<T | null> => {
  try {
    return (await read()) ?? null;
  } catch {
    return null;
  }
};

const major = (version: string) => /^\d+/.exec(version)?.[0] ?? null;

async function osDescription(probe: FingerprintProbe): Promise<string | null> {
  const kernel = major(probe.release());
  if (probe.platform === "linux") {
    const release = await attempt(() => probe.readFile("/etc/os-release"));
    const field = (name: string) =>
      new RegExp(`^${name}=("?)([^"\\n]*)\\1$`, "m").exec(release ?? "")?.[2]?.trim() || null;
    const id = field("ID");
    if (id) return [id.toLowerCase(), major(field("VERSION_ID") ?? "")].filter(Boolean).join(" ");
    return kernel && `linux ${kernel}`;
  }
  const family = probe.platform === "win32" ? "windows" : probe.platform;
  return kernel ? `${family} ${kernel}` : family;
}

const MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;
/** Host-side virtual adapters: containers, VMs' host networks, VPNs, tunnels, bridges. */
const VIRTUAL_INTERFACE =
  /^(lo|docker|veth|br-|virbr|vmnet|vboxnet|vnic|tun|tap|utun|awdl|llw|bridge|zt|wg|tailscale|dummy|bond|team|cni|flannel|cali|kube|podman|lxc|lxd|ip6tnl|sit|gre|ifb|macvtap|ipvlan|anpi|ap\d|gif|stf|p2p)|vmware|virtualbox|hyper-v|vethernet|loopback|bluetooth|npcap|wintun|wireguard|zerotier|pseudo/i;

/** A MAC that identifies hardware: unicast, universally administered (randomised ones are local), not zero. */
export const isStableMac = (mac: string) =>
  MAC.test(mac) && mac !== "00:00:00:00:00:00" && (parseInt(mac.slice(0, 2), 16) & 0b11) === 0;

async function macAddress(probe: FingerprintProbe): Promise<string | null> {
  const candidates: string[] = [];
  if (probe.platform === "linux") {
    // sysfs lists interfaces that are down too, and says which are hardware (`device`) and which MAC is
    // the burned-in one (`addr_assign_type` 0), so a Wi-Fi switched off does not change the choice.
    const names = (await attempt(() => probe.readdir("/sys/class/net"))) ?? [];
    for (const name of names) {
      const dir = `/sys/class/net/${name}`;
      if (VIRTUAL_INTERFACE.test(name) || !(await probe.exists(`${dir}/device`))) continue;
      const assigned = (await attempt(() => probe.readFile(`${dir}/addr_assign_type`)))?.trim();
      const mac = (await attempt(() => probe.readFile(`${dir}/address`)))?.trim().toLowerCase();
      if (mac && (assigned === undefined || assigned === "0") && isStableMac(mac)) candidates.push(mac);
    }
  }
  if (candidates.length === 0) {
    const interfaces = (await attempt(() => probe.networkInterfaces())) ?? {};
    for (const [name, addresses] of Object.entries(interfaces)) {
      if (VIRTUAL_INTERFACE.test(name)) continue;
      for (const address of addresses ?? []) {
        const mac = address.mac.toLowerCase();
        if (!address.internal && isStableMac(mac)) candidates.push(mac);
      }
    }
  }
  return [...new Set(candidates)].sort()[0] ?? null;
}

async function machineId(probe: FingerprintProbe): Promise<string | null> {
  switch (probe.platform) {
    case "linux":
    case "freebsd": {
      for (const path of ["/etc/machine-id", "/var/lib/dbus/machine-id", "/etc/hostid"]) {
        const id = (await attempt(() => probe.readFile(path)))?.trim().toLowerCase();
        if (id && /^[0-9a-f-]{8,64}$/.test(id) && !/^[0-]+$/.test(id)) return id;
      }
      return null;
    }
    case "win32": {
      const out = await attempt(() =>
        probe.exec("reg", [
          "query",
          "HKLM\\SOFTWARE\\Microsoft\\Cryptography",
          "/v",
          "MachineGuid",
          "/reg:64",
        ]),
      );
      return /MachineGuid\s+REG_SZ\s+([0-9a-f-]+)/i.exec(out ?? "")?.[1]?.toLowerCase() ?? null;
    }
    case "darwin": {
      const out = await attempt(() => probe.exec("ioreg", ["-rd1", "-c", "IOPlatformExpertDevice"]));
      return /"IOPlatformUUID"\s*=\s*"([^"]+)"/.exec(out ?? "")?.[1]?.toLowerCase() ?? null;
    }
    default:
      return null;
  }
}

const GIB = 1024 ** 3;

/** Rounded up to a power of two GiB: 15.5 GiB reported for 16 GiB installed is `16gib`. */
export function memorySizeBucket(bytes: number): string | null {
  if (!Number.isFinite(bytes) || bytes <= 0) return null;
  return `${2 ** Math.max(0, Math.ceil(Math.log2(bytes / GIB) - 1e-9))}gib`;
}

function cpuModel(probe: FingerprintProbe): string | null {
  const model = probe.cpus?.()[0]?.model?.replace(/\s+/g, " ").trim().toLowerCase();
  return model && model !== "unknown" ? model.slice(0, 200) : null;
}

const basename = (path: string) => path.replace(/\/+$/, "").split("/").pop() ?? "";
/** An id read from a file: trimmed, lower case, not empty, not all zeros. */
const idText = (text: string | null | undefined) => {
  const id = text?.replace(/\s+/g, " ").trim().toLowerCase();
  return id && !/^[0\s-]*$/.test(id) ? id.slice(0, 200) : null;
};

/** The block device under `/` (a partition, a mapper, the disk itself), from the mount table. */
async function rootBlockDevice(probe: FingerprintProbe): Promise<string | null> {
  const mounts = await attempt(() => probe.readFile("/proc/self/mountinfo"));
  // `36 35 98:0 / / rw,relatime - ext4 /dev/sda2 rw`: the last mount on `/` wins.
  const root = (mounts ?? "")
    .split("\n")
    .map((line) => line.split(" "))
    .filter((fields) => fields[4] === "/")
    .pop();
  if (!root) return null;
  const bySysfs = await attempt(async () => basename(await probe.readlink!(`/sys/dev/block/${root[2]}`)));
  if (bySysfs) return bySysfs;
  const source = root[root.indexOf("-") + 2];
  if (!source?.startsWith("/dev/")) return null;
  const link = await attempt(() => probe.readlink!(source));
  return basename(link ?? source);
}

/** The whole disk a block device lives on: a partition's parent, a device mapper's first slave's disk. */
async function diskOf(probe: FingerprintProbe, device: string): Promise<string> {
  let name = device;
  for (let depth = 0; depth < 4; depth++) {
    const slaves = await attempt(() => probe.readdir(`/sys/class/block/${name}/slaves`));
    if (slaves?.length) {
      name = [...slaves].sort()[0]!;
      continue;
    }
    if (await probe.exists(`/sys/class/block/${name}/partition`)) {
      const path = await attempt(() => probe.readlink!(`/sys/class/block/${name}`));
      const parts = path?.split("/") ?? [];
      if (parts.length >= 2) name = parts[parts.length - 2]!;
    }
    break;
  }
  return name;
}

async function linuxDiskId(probe: FingerprintProbe): Promise<string | null> {
  if (!probe.readlink) return null;
  const device = await rootBlockDevice(probe);
  if (!device) return null;
  const disk = await diskOf(probe, device);
  // udev's names carry the bus, model and serial (`ata-Samsung_SSD_860_EVO_500GB_S3Z9NB0K123456X`).
  const ids = (await attempt(() => probe.readdir("/dev/disk/by-id"))) ?? [];
  const named: string[] = [];
  for (const id of ids) {
    if (/^(wwn-|nvme-eui\.|dm-|lvm-)|-part\d+$/.test(id)) continue;
    if (basename((await attempt(() => probe.readlink!(`/dev/disk/by-id/${id}`))) ?? "") === disk)
      named.push(id);
  }
  if (named.length) return `id:${named.sort()[0]!.toLowerCase()}`;
  for (const file of ["device/serial", "serial", "device/wwid", "wwid"]) {
    const serial = idText(await attempt(() => probe.readFile(`/sys/class/block/${disk}/${file}`)));
    if (serial) return `serial:${serial}`;
  }
  for (const uuid of (await attempt(() => probe.readdir("/dev/disk/by-uuid"))) ?? []) {
    if (basename((await attempt(() => probe.readlink!(`/dev/disk/by-uuid/${uuid}`))) ?? "") === device)
      return `uuid:${uuid.toLowerCase()}`;
  }
  return null;
}

async function diskId(probe: FingerprintProbe): Promise<string | null> {
  switch (probe.platform) {
    case "linux":
      return linuxDiskId(probe);
    case "win32": {
      // `cmd` expands %SystemDrive%; `vol` prints "Volume Serial Number is 1A2B-3C4D".
      const out = await attempt(() => probe.exec("cmd", ["/d", "/c", "vol", "%SystemDrive%"]));
      const serial = /([0-9a-f]{4}-[0-9a-f]{4})\s*$/im.exec(out ?? "")?.[1];
      return serial ? `volume:${serial.toLowerCase()}` : null;
    }
    case "darwin": {
      // The data volume outlives OS updates (the system volume is a sealed snapshot of each release).
      for (const volume of ["/System/Volumes/Data", "/"]) {
        const out = await attempt(() => probe.exec("diskutil", ["info", volume]));
        const uuid = /^\s*Volume UUID:\s*([0-9a-f-]{36})\s*$/im.exec(out ?? "")?.[1];
        if (uuid) return `volume:${uuid.toLowerCase()}`;
      }
      return null;
    }
    default:
      return null;
  }
}

/** Reads every source through `probe`, each on its own, failures as null. */
export async function collectFingerprintSources(
  probe: FingerprintProbe = nodeProbe,
): Promise<FingerprintSources> {
  const [machineName, description, mac, id, cpu, memory, disk] = await Promise.all([
    attempt(() => probe.hostname().trim().toLowerCase() || null),
    attempt(() => osDescription(probe)),
    attempt(() => macAddress(probe)),
    attempt(() => machineId(probe)),
    attempt(() => cpuModel(probe)),
    attempt(() => (probe.totalmem ? memorySizeBucket(probe.totalmem()) : null)),
    attempt(() => diskId(probe)),
  ]);
  return {
    machineName,
    osDescription: description,
    macAddress: mac,
    machineId: id,
    osFamily: description?.split(" ")[0] ?? null,
    cpuModel: cpu,
    memorySize: memory,
    diskId: disk,
  };
}

// The spec computes the fingerprint once per process: the machine does not change under a running program.
let sources: Promise<FingerprintSources> | undefined;

/** The fingerprint's inputs on this machine (read once per process), for support and diagnostics. */
export const fingerprintSources = () => (sources ??= collectFingerprintSources());

/** What each fingerprint version hashes, in this order. */
const FINGERPRINT_LINES: Record<FingerprintVersion, Array<keyof FingerprintSources>> = {
  1: ["machineName", "osDescription", "macAddress", "machineId"],
  2: ["machineName", "osFamily", "macAddress", "machineId"],
};

/**
 * SHA-256 (64 hex) over the sources that were found; null when none was. Version 1 (the default, and what
 * an install made before version 2 existed keeps) includes the OS major version; version 2 has only the OS
 * family, so a major OS upgrade is not a new machine.
 */
export function fingerprintOf(found: FingerprintSources, version: FingerprintVersion = 1): string | null {
  const lines = FINGERPRINT_LINES[version]
    .filter((name) => found[name] !== null && found[name] !== undefined)
    .map((name) => `${name}=${found[name]}`);
  if (lines.length === 0) return null;
  return createHash("sha256")
    .update([`licensing-fingerprint/${version}`, ...lines].join("\n"))
    .digest("hex");
}

/**
 * The components the SDK sends on activation (kind → value, before hashing): every source on its own but
 * the OS version. Sources that could not be read are absent.
 */
export function fingerprintComponents(found: FingerprintSources): Record<string, string> {
  const values: Record<string, string | null> = {
    "machine-id": found.machineId,
    "cpu-model": found.cpuModel,
    "memory-size": found.memorySize,
    "disk-id": found.diskId,
    "mac-address": found.macAddress,
    "host-name": found.machineName,
    "os-family": found.osFamily,
  };
  return Object.fromEntries(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}

const installIds = new Map<string, Promise<string>>();

/** A random id kept in `file`: the stand-in when no source could be read. */
function installId(file: string | undefined): Promise<string> {
  const key = file ?? "";
  let id = installIds.get(key);
  if (!id) {
    id = (async () => {
      if (!file) return randomUUID();
      const read = async () => (await attempt(() => readFile(file, "utf8")))?.trim() ?? null;
      const existing = await read();
      if (existing && /^[0-9a-f-]{36}$/.test(existing)) return existing;
      const fresh = randomUUID();
      // `wx`: when two processes race, one file wins and both use it.
      const written = await attempt(() =>
        writeFile(file, `${fresh}\n`, { flag: "wx", mode: 0o600 }).then(() => true),
      );
      return written ? fresh : ((await read()) ?? fresh);
    })();
    installIds.set(key, id);
  }
  return id;
}

/** The fingerprint of `found`, or (none found) the install id's kept in `installIdFile`. */
export async function fingerprintWithFallback(
  found: FingerprintSources,
  installIdFile?: string,
  version: FingerprintVersion = 1,
): Promise<string> {
  const fingerprint = fingerprintOf(found, version);
  if (fingerprint) return fingerprint;
  const id = await installId(installIdFile);
  return createHash("sha256").update(`licensing-install-id/1\n${id}`).digest("hex");
}

/**
 * This machine's default fingerprint: 64 hex characters (version 1 unless `fingerprintVersion` says 2).
 * When no source can be read (a locked-down sandbox), a random install id kept in `installIdFile` stands
 * in, so the machine stays the same machine.
 */
export async function defaultFingerprint(
  options: { installIdFile?: string; fingerprintVersion?: FingerprintVersion } = {},
): Promise<string> {
  return fingerprintWithFallback(
    await fingerprintSources(),
    options.installIdFile,
    options.fingerprintVersion ?? 1,
  );
}

/** This machine's components, kind → value (hashed with the license key by the client before sending). */
export const defaultComponents = async () => fingerprintComponents(await fingerprintSources());
