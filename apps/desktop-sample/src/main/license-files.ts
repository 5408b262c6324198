import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  cachePaths,
  checkLicenseFile,
  normalizeLicenseKey,
  parseLicenseFile,
  toPublicKey,
  writeFileAtomic,
} from "@licensing/client";
import { z } from "zod";
import type { FetchLicenseInput } from "../shared/bridge.ts";
import { DesktopActionError } from "./desktop-error.ts";

/** Where the app keeps the installed license (the SDK's cache files sit beside it) and a pinned public key. */
export const licenseStore = (dataDir: string) => ({
  licensePath: join(dataDir, "license.lic"),
  publicKeyPath: join(dataDir, "public-key.txt"),
});

/** A pasted key, read as the server reads one (trimmed, upper-cased, Crockford's look-alikes as digits). */
const LicenseKey = z.string().transform((text, ctx) => {
  const key = normalizeLicenseKey(text);
  if (key === null) {
    ctx.addIssue({ code: "custom", message: "A license key looks like SVC-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX" });
    return z.NEVER;
  }
  return key;
});
const DownloadUrl = z
  .string()
  .trim()
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "The address must be an absolute http:// or https:// URL",
  });
export const FetchLicenseRequest = z.object({ licenseKey: LicenseKey, url: DownloadUrl });

const PublicKeyHex = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{64}$/);

function invalid(error: z.ZodError): never {
  throw new DesktopActionError("input.invalid", error.issues.map((issue) => issue.message).join("; "));
}

// A license file is a few kilobytes; a large file is not one, and is not read into memory.
const MAX_LICENSE_BYTES = 1024 * 1024;

/** Reads the license file the user chose. */
export async function readChosenFile(path: string): Promise<string> {
  const size = await stat(path).then(
    (info) => (info.isFile() ? info.size : null),
    () => null,
  );
  if (size === null) throw new DesktopActionError("license.file_missing", `There is no file at ${path}`);
  if (size > MAX_LICENSE_BYTES)
    throw new DesktopActionError("license.file_unreadable", "This is not a license file (.lic)");
  return readFile(path, "utf8");
}

/** Downloads a license file for a pasted key: `{licenseKey}` in the address is replaced by the key. */
export async function downloadLicenseFile(
  input: FetchLicenseInput,
  fetcher: typeof fetch,
  timeoutMs = 15_000,
): Promise<{ licenseKey: string; text: string }> {
  const parsed = FetchLicenseRequest.safeParse(input);
  if (!parsed.success) invalid(parsed.error);
  const { licenseKey, url } = parsed.data;
  const address = url.replaceAll("{licenseKey}", encodeURIComponent(licenseKey));
  let response: Response;
  try {
    response = await fetcher(address, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  } catch {
    throw new DesktopActionError("download.failed", `No answer from ${new URL(address).host}`);
  }
  const declared = Number(response.headers.get("content-length") ?? 0);
  const text = declared > MAX_LICENSE_BYTES ? "" : await response.text();
  if (declared > MAX_LICENSE_BYTES || text.length > MAX_LICENSE_BYTES) {
    throw new DesktopActionError("license.file_unreadable", "The address did not answer with a license file");
  }
  if (!response.ok) {
    throw new DesktopActionError("download.failed", `The server answered ${response.status} for ${address}`);
  }
  return { licenseKey, text };
}

/** Refuses what is neither the panel's envelope nor a bare token, before anything else is asked. */
export function requireLicenseShape(text: string) {
  if (!parseLicenseFile(text))
    throw new DesktopActionError("license.file_unreadable", "This is not a license file (.lic)");
}

/** The license key a file names (its envelope's), without verifying it: only to look up a public key. */
export const licenseKeyOfFile = (text: string) => parseLicenseFile(text)?.licenseKey ?? null;

/**
 * The product's public key: the configured one, else the one pinned on first run, else (first run) the
 * server's answer for this license key, pinned from then on (decision 0033).
 */
export async function resolvePublicKey(options: {
  configured: string | null;
  publicKeyPath: string;
  serverUrl: string;
  licenseKey: string | null;
  fetch: typeof fetch;
}): Promise<string> {
  if (options.configured) return options.configured;
  const pinned = await readFile(options.publicKeyPath, "utf8").catch(() => null);
  if (pinned && PublicKeyHex.safeParse(pinned).success) return pinned.trim();
  if (!options.licenseKey) {
    throw new DesktopActionError(
      "public_key.unknown",
      "This product has no public key configured; use the license file the panel downloads, or set LICENSING_PUBLIC_KEY",
    );
  }
  const url = new URL(
    `/api/v1/client/public-key/${encodeURIComponent(options.licenseKey)}`,
    options.serverUrl,
  );
  try {
    const response = await options.fetch(url, { signal: AbortSignal.timeout(15_000) });
    const body = (await response.json()) as { publicKey?: unknown; message?: unknown };
    const key = PublicKeyHex.safeParse(body.publicKey);
    if (!response.ok || !key.success) {
      throw new DesktopActionError(
        "public_key.unavailable",
        `The server has no public key for this license (${response.status}${typeof body.message === "string" ? `: ${body.message}` : ""})`,
      );
    }
    await writeFileAtomic(options.publicKeyPath, key.data.toLowerCase());
    return key.data.toLowerCase();
  } catch (error) {
    if (error instanceof DesktopActionError) throw error;
    throw new DesktopActionError(
      "public_key.unavailable",
      `Cannot reach ${options.serverUrl} to get the public key`,
    );
  }
}

/**
 * Checks a license file before installing it, the way the SDK will read it: it must verify with the public
 * key, name `expectedKey` when one was pasted, and not be past its expiry.
 */
export async function checkCandidate(text: string, publicKey: string, now: number, expectedKey?: string) {
  const check = await checkLicenseFile(text, toPublicKey(publicKey));
  if (!check.ok) {
    if (check.problem === "signature-invalid") {
      throw new DesktopActionError(
        "license.signature_invalid",
        "The license file's signature does not verify with this product's public key",
      );
    }
    throw new DesktopActionError("license.file_unreadable", "This is not a license file (.lic)");
  }
  const { claims, licenseKey } = check.license;
  if (expectedKey !== undefined && licenseKey !== expectedKey) {
    throw new DesktopActionError("license.key_mismatch", "The downloaded file is the license of another key");
  }
  if (claims.exp * 1000 <= now) {
    throw new DesktopActionError(
      "license.expired",
      `This license expired on ${new Date(claims.exp * 1000).toISOString()}`,
    );
  }
  return check.license;
}

/** Writes the license in place of the installed one; a different license's cache is dropped with it. */
export async function installLicenseText(licensePath: string, text: string, sameLicense: boolean) {
  if (!sameLicense) {
    const cache = cachePaths(licensePath);
    await Promise.all(
      Object.values(cache).map((path) => (path === licensePath ? null : rm(path, { force: true }))),
    );
  }
  await writeFileAtomic(licensePath, text);
}
