import {
  COMPONENT_KIND_PATTERN,
  componentHashInput,
  MAX_COMPONENTS,
  type FingerprintComponent,
} from "@licensing/protocol";
import { sha256Hex } from "../crypto/web-crypto.ts";

/**
 * A machine's components before hashing, kind → value (`{"machine-id": "…", "cpu-model": "…"}`). A kind is
 * 1–32 characters of `[a-z0-9-]`; a value that is null, undefined or empty is left out.
 */
export type ComponentValues = Readonly<Record<string, string | null | undefined>>;

/**
 * The components an activation sends: each value salted with the license key and hashed (the protocol's
 * `componentHashInput`), so the server compares machines without learning a MAC address or a host name.
 * Kinds that are not well-formed are skipped, and so is anything past the 16th.
 */
export async function hashComponents(
  licenseKey: string,
  values: ComponentValues,
): Promise<{ components: FingerprintComponent[]; skipped: string[] }> {
  const kept: Array<[string, string]> = [];
  const skipped: string[] = [];
  for (const [kind, value] of Object.entries(values)) {
    if (value === null || value === undefined || value === "") continue;
    if (!COMPONENT_KIND_PATTERN.test(kind) || typeof value !== "string" || kept.length >= MAX_COMPONENTS)
      skipped.push(kind);
    else kept.push([kind, value]);
  }
  const components = await Promise.all(
    kept.map(async ([kind, value]) => ({
      kind,
      hash: await sha256Hex(componentHashInput(licenseKey, kind, value)),
    })),
  );
  return { components, skipped };
}
