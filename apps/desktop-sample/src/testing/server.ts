import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import type { IssuedLicense, TestApp, TestClient } from "@licensing/api/testing";
import type { LicenseClient, LicenseClientOptions } from "@licensing/client";
import { startSdkTestServer, type LicenseTerms } from "@licensing/client/testing";
import { LicenseSession, type LicenseSessionOptions } from "../main/license-session.ts";

/**
 * The real licensing server for the main-process suites: the SDK's test server (the app on an ephemeral
 * port with a manual clock the desktop session reads, a company Admin through a personal access token),
 * with a fresh app folder per session.
 */
export interface DesktopTestServer {
  app: TestApp;
  admin: TestClient;
  clock: () => number;
  /** Issues a license and writes its `.lic` (as the panel downloads it) into a scratch folder. */
  licenseFile(terms?: LicenseTerms): Promise<{ license: IssuedLicense; path: string }>;
  /** The same, for another product (another template, so another signing key). */
  otherProductLicenseFile(): Promise<{ license: IssuedLicense; path: string }>;
  /** A session over a fresh app folder; the fingerprint is `machine-a` unless the options say otherwise. */
  session(options?: Partial<LicenseSessionOptions>): Promise<LicenseSession>;
  /**
   * Another computer using the license: the SDK over its own copy of the file, initialized (so activated,
   * when a seat is free). Disposed of (deactivated) on close.
   */
  otherMachine(
    onDisk: { license: IssuedLicense; path: string },
    options: Pick<LicenseClientOptions, "hwFingerprint" | "machineName"> & Partial<LicenseClientOptions>,
  ): Promise<LicenseClient>;
  activations(
    licenseId: string,
  ): Promise<Array<{ id: string; status: string; hwFingerprint: string | null }>>;
  close(): Promise<void>;
}

export async function startDesktopTestServer(): Promise<DesktopTestServer> {
  const server = await startSdkTestServer();
  const { app, admin, clock } = server;
  const sessions: LicenseSession[] = [];
  const machines: LicenseClient[] = [];
  return {
    app,
    admin,
    clock,
    licenseFile: (terms) => server.licenseOnDisk(terms),
    otherProductLicenseFile: () => server.otherProductLicenseOnDisk(),
    async session(options = {}) {
      const session = await LicenseSession.open({
        dataDir: await server.scratchDir(),
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
    async otherMachine(onDisk, options) {
      const dir = await server.scratchDir();
      const path = join(dir, "license.lic");
      await copyFile(onDisk.path, path);
      const client = server.client({ ...onDisk, path, dir }, options);
      machines.push(client);
      await client.initialize();
      return client;
    },
    async activations(licenseId) {
      return (await admin.api.activations.list({ params: { id: licenseId } })).body;
    },
    async close() {
      await Promise.all([
        ...sessions.map((session) => session.close()),
        ...machines.map((client) => client.dispose()),
      ]);
      await server.close();
    },
  };
}
