/**
 * Fingerprint components (issue 22): one salted hash per property of the machine, sent on activation beside
 * `hwFingerprint` so that the server can recognise a machine after one or two of its properties changed.
 * The server compares hashes and never sees a value.
 */

/** One component as the activation request carries it. */
export interface FingerprintComponent {
  /** What was hashed: `machine-id`, `cpu-model`, … (1–32 characters of `[a-z0-9-]`, unique in a request). */
  kind: string;
  /** SHA-256 of `componentHashInput(licenseKey, kind, value)`: 64 lower-case hex characters. */
  hash: string;
}

export const COMPONENT_KIND_PATTERN = /^[a-z0-9-]{1,32}$/;
export const COMPONENT_HASH_PATTERN = /^[0-9a-f]{64}$/;
/** At most this many components in one activation request. */
export const MAX_COMPONENTS = 16;

/**
 * The kinds the SDKs read, in the order they send them. Another SDK that reads the same property should
 * use the same kind and the same value, so that a machine moving from one SDK to another stays itself.
 */
export const COMPONENT_KINDS = [
  "machine-id",
  "cpu-model",
  "memory-size",
  "disk-id",
  "mac-address",
  "host-name",
  "os-family",
] as const;

/**
 * The UTF-8 text whose SHA-256 (lower-case hex) is a component's hash. The license key (normalised, as in
 * the token's `lk`) is the salt: the same machine gives other hashes on another license, so a hash says
 * nothing outside its license, and a table of hashed MAC addresses or host names is no use.
 */
export const componentHashInput = (licenseKey: string, kind: string, value: string) =>
  `licensing-component/1\n${licenseKey}\n${kind}\n${value}`;
