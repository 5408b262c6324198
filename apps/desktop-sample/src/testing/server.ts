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
import { LicenseSession, type LicenseSessionOptions } from "../main/license-session.ts";

/**
 * The real licensing server for the main-process suites: the app on an ephemeral port with a manual
 * clock the desktop session reads, a company Admin (personal access token) and a fresh app folder per session.
 */
export interface DesktopTestServer {
  app: TestApp;
  admin: TestClient;
  clock: () => number;
  /** Issues a license and writes its `.lic` (as the panel downloads it) into a scratch folder. */
  licenseFile(terms?: Record<string, unknown>): Promise<{ license: IssuedLicense; path: string }>;
  /** The same, for another product (another template, so another signing key). */
  otherProductLicenseFile(): Promise<{ license: IssuedLicense; path: string }>;
  /** A session over a fresh app folder; the fingerprint is `machine-a` unless the options say otherwise. */
  session(options?: Partial<LicenseSessionOptions>): Promise<LicenseSession>;
  activations(licenseId: string): Promise<Array<{ id: string; status: string; hwFingerprint: string }>>;
  close(): Promise<void>;
}

export async function startDesktopTestServer(): Promise<DesktopTestServer> {
  const app = await startTestApp();
  const operator = await app.client({ signIn: true });
  const target = await createLicensedCompany(operator);
  const token = await operator.post("/api/v1/panel/api-tokens", {
    name: "desktop tests",
    companyId: target.companyId,
  });
  if (token.status !== 201) throw new Error(`token creation failed: ${token.status} ${token.text}`);
  const admin = await app.client();
  admin.headers.authorization = `Bearer ${token.body.secret}`;
  const clock = () => app.clock.now().getTime();
  const dirs: string[] = [];
  const sessions: LicenseSession[] = [];
  const scratch = async () => {
    const dir = await mkdtemp(join(tmpdir(), "licensing-desktop-"));
    dirs.push(dir);
    return dir;
  };

  const licenseFile = async (
    issuer: TestClient,
    to: { companyId: string; templateId: string },
    terms: Record<string, unknown> = {},
  ) => {
    const license = await issueLicense(issuer, to, { offlineDays: 7, ...terms });
    const res = await issuer.get(`/api/v1/panel/licenses/${license.id}/download`);
    if (res.status !== 200) throw new Error(`download failed: ${res.status} ${res.text}`);
    const path = join(await scratch(), `${license.licenseKey}.lic`);
    await writeFile(path, res.text);
    return { license, path };
  };

  return {
    app,
    admin,
    clock,
    licenseFile: (terms) => licenseFile(admin, target, terms),
    otherProductLicenseFile: async () => licenseFile(operator, await createLicensedCompany(operator)),
    async session(options = {}) {
      const session = await LicenseSession.open({
        dataDir: await scratch(),
        serverUrl: app.url,
        publicKey: null,
        qa: true,
        hwFingerprint: "machine-a",
        machineName: "Desktop test",
        clock,
        activationTimeoutMs: 2000,
        ...options,
      });
      sessions.push(session);
      return session;
    },
    async activations(licenseId) {
      const res = await admin.get(`/api/v1/panel/licenses/${licenseId}/activations`);
      return res.body;
    },
    async close() {
      await Promise.all(sessions.map((session) => session.close()));
      await app.close();
      await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
}
