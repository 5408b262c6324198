import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { access, readdir, readFile, writeFile } from "node:fs/promises";
import * as os from "node:os";

/**
 * The default machine fingerprint (spec §4 rule 2): SHA-256 over the machine name, the OS family and major
 * version, the first stable MAC address and the OS's machine id. Each input is chosen to survive reboots
 * and updates; a source that fails is skipped; nothing here throws or blocks the event loop.
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
}

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

/** Reads every source through `probe`, each on its own, failures as null. */
export async function collectFingerprintSources(
  probe: FingerprintProbe = nodeProbe,
): Promise<FingerprintSources> {
  const [machineName, description, mac, id] = await Promise.all([
    attempt(() => probe.hostname().trim().toLowerCase() || null),
    attempt(() => osDescription(probe)),
    attempt(() => macAddress(probe)),
    attempt(() => machineId(probe)),
  ]);
  return { machineName, osDescription: description, macAddress: mac, machineId: id };
}

// The spec computes the fingerprint once per process: the machine does not change under a running program.
let sources: Promise<FingerprintSources> | undefined;

/** The fingerprint's inputs on this machine (read once per process), for support and diagnostics. */
export const fingerprintSources = () => (sources ??= collectFingerprintSources());

/** SHA-256 (64 hex) over the sources that were found; null when none was. */
export function fingerprintOf(found: FingerprintSources): string | null {
  const lines = Object.entries(found)
    .filter(([, value]) => value !== null)
    .map(([name, value]) => `${name}=${value}`);
  if (lines.length === 0) return null;
  return createHash("sha256")
    .update(["licensing-fingerprint/1", ...lines].join("\n"))
    .digest("hex");
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
): Promise<string> {
  const fingerprint = fingerprintOf(found);
  if (fingerprint) return fingerprint;
  const id = await installId(installIdFile);
  return createHash("sha256").update(`licensing-install-id/1\n${id}`).digest("hex");
}

/**
 * This machine's default fingerprint: 64 hex characters. When no source can be read (a locked-down
 * sandbox), a random install id kept in `installIdFile` stands in, so the machine stays the same machine.
 */
export async function defaultFingerprint(options: { installIdFile?: string } = {}): Promise<string> {
  return fingerprintWithFallback(await fingerprintSources(), options.installIdFile);
}
