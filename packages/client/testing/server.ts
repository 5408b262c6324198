import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createLicensedCompany,
  issueLicense,
  startTestApp,
  type IssuedLicense,
  type TestApp,
  type TestClient,
} from "@licensing/api/testing";
import { LicenseClient, type LicenseClientOptions } from "../src/node/license-client.ts";

/**
 * The real server for the SDK's end-to-end suites: the app on an ephemeral port over its own database,
 * with a manual clock the SDK shares (`clock`), an operator and a licensed company.
 */
/** The terms a test issues a license with (the `POST /licenses` body, target aside). */
export type LicenseTerms = Parameters<typeof issueLicense>[2];

export interface SdkTestServer {
  app: TestApp;
  /** The licensed company's Admin, through a personal access token (moving the clock ends no session). */
  admin: TestClient;
  /**
   * The bootstrap operator, signed in (templates, signing keys): a session, which ends after 7 days of
   * the clock without a request.
   */
  operator: TestClient;
  /** The app's manual clock as the SDK reads it. */
  clock: () => number;
  /** Issues a license and writes its downloaded `.lic` into a fresh folder. */
  licenseOnDisk(terms?: LicenseTerms): Promise<LicenseOnDisk>;
  /** The same for another company's product (another template, so another signing key), by the operator. */
  otherProductLicenseOnDisk(): Promise<LicenseOnDisk>;
  /** A fresh folder, removed on close. */
  scratchDir(): Promise<string>;
  /** Downloads the license's current file again into `path` (after a rebind or transfer). */
  download(licenseId: string, path: string): Promise<void>;
  /** A client of `license` at `path`; the fingerprint is `machine-a` unless the options say otherwise. */
  client(onDisk: LicenseOnDisk, options?: Partial<LicenseClientOptions>): LicenseClient;
  close(): Promise<void>;
}

export interface LicenseOnDisk {
  license: IssuedLicense;
  path: string;
  dir: string;
}

export async function startSdkTestServer(): Promise<SdkTestServer> {
  const app = await startTestApp();
  const operator = await app.client({ signIn: true });
  const target = await createLicensedCompany(operator);
  const token = await operator.api.apiTokens.create({
    body: { name: "sdk tests", companyId: target.companyId },
  });
  if (token.status !== 201) throw new Error(`token creation failed: ${token.status} ${token.text}`);
  const admin = await app.client();
  admin.headers.authorization = `Bearer ${token.body.secret}`;
  const dirs: string[] = [];
  const clock = () => app.clock.now().getTime();
  const scratchDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), "licensing-sdk-"));
    dirs.push(dir);
    return dir;
  };

  const downloadBy = async (issuer: TestClient, licenseId: string, path: string) => {
    const res = await issuer.api.licenses.file({ params: { id: licenseId } });
    if (res.status !== 200) throw new Error(`download failed: ${res.status} ${res.text}`);
    await writeFile(path, res.text);
  };
  const issueOnDisk = async (
    issuer: TestClient,
    to: { companyId: string; templateId: string },
    terms: LicenseTerms = {},
  ): Promise<LicenseOnDisk> => {
    const license = await issueLicense(issuer, to, { offlineDays: 7, ...terms });
    const dir = await scratchDir();
    const path = join(dir, `${license.licenseKey}.lic`);
    await downloadBy(issuer, license.id, path);
    return { license, path, dir };
  };
  return {
    app,
    admin,
    operator,
    clock,
    download: (licenseId, path) => downloadBy(admin, licenseId, path),
    licenseOnDisk: (terms) => issueOnDisk(admin, target, terms),
    otherProductLicenseOnDisk: async () => issueOnDisk(operator, await createLicensedCompany(operator)),
    scratchDir,
    client: (onDisk, options = {}) =>
      new LicenseClient({
        serverUrl: app.url,
        licenseFilePath: onDisk.path,
        publicKey: onDisk.license.publicKey,
        hwFingerprint: "machine-a",
        machineName: "Test machine",
        clock,
        ...options,
      }),
    async close() {
      await app.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}

/** A fetch for a machine without network: every request fails as `fetch` does when nothing answers. */
export const offlineFetch: typeof fetch = async () => {
  throw new TypeError("fetch failed", { cause: new Error("connect ENETUNREACH") });
};
