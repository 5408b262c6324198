import { dirname, join } from "node:path";
import { encodeQR } from "qr";
import { LicenseClientCore } from "../client/license-client-core.ts";
import type { LicenseClientCoreOptions } from "../client/options.ts";
import { defaultComponents, defaultFingerprint } from "./fingerprint.ts";
import { fileStorage } from "./file-storage.ts";
import { machineName } from "./machine-name.ts";

export interface LicenseClientOptions extends Omit<
  LicenseClientCoreOptions,
  "storage" | "hwFingerprint" | "components"
> {
  /** The `.lic` file: the panel's envelope `{licenseKey, token, publicKey}` or a bare token. */
  licenseFilePath: string;
  /** Default: `defaultFingerprint()`, the spec's SHA-256 over this machine's stable properties. */
  hwFingerprint?: string;
  /**
   * Default: with the default fingerprint, this machine's components (`defaultComponents()`); with your own
   * `hwFingerprint`, none, since they would describe the machine this process runs on rather than the one
   * you name. `false` sends none.
   */
  components?: LicenseClientCoreOptions["components"];
  /** Default: the host name. */
  machineName?: string | null;
}

/** The file that keeps the install id when no fingerprint source can be read: one per folder of licenses. */
export const installIdFile = (licenseFilePath: string) =>
  join(dirname(licenseFilePath), ".licensing-install-id");

/**
 * The client library for Node and Electron's main process (spec §4): the license file and its cache
 * (`<license file>.hb`, `<license file>.state.json`) on disk, the default fingerprint, its components and
 * the machine name.
 */
export class LicenseClient<Config = unknown> extends LicenseClientCore<Config> {
  constructor(options: LicenseClientOptions) {
    if (!options.licenseFilePath) throw new TypeError("licenseFilePath is required");
    const { components } = options;
    super({
      ...options,
      storage: fileStorage(options.licenseFilePath),
      hwFingerprint:
        options.hwFingerprint ??
        ((fingerprintVersion) =>
          defaultFingerprint({ installIdFile: installIdFile(options.licenseFilePath), fingerprintVersion })),
      components: components ?? (options.hwFingerprint === undefined ? defaultComponents : false),
      machineName: options.machineName === undefined ? machineName() : options.machineName,
    });
  }

  /**
   * The pending offline activation request (`pendingOfflineRequest`; one is made when none is pending), or
   * `request` when given, as an SVG QR code (low error correction, a quiet zone of four modules, a white
   * background), for a phone to carry to the panel.
   */
  async offlineActivationRequestQrSvg(request?: string): Promise<string> {
    const text = request ?? this.pendingOfflineRequest ?? (await this.createOfflineActivationRequest());
    return encodeQR(text, "svg", { ecc: "low", border: 4, optimize: true }).replace(
      /^<svg ([^>]*)>/,
      '<svg $1 shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/>',
    );
  }
}
