import { afterAll, beforeAll } from "vitest";
import { operations } from "../catalogue.ts";
import type { BodyOf, ResultOf } from "./api-client.ts";
import {
  createLicensedCompany,
  issueLicense,
  signedPost,
  type IssuedLicense,
  type SignOptions,
} from "./client-api.ts";
import type { ApiResponse, TestClient } from "./http-client.ts";
import { startTestApp, type TestApp, type TestAppOptions } from "./index.ts";

type Client = typeof operations.client;
type Terms = Parameters<typeof issueLicense>[2];
/** The client operations signed like a heartbeat. */
type Signed =
  "heartbeat" | "deactivate" | "machines" | "acquireLease" | "renewLease" | "releaseLease" | "borrowLease";

export interface ClientApiFixture {
  app: TestApp;
  /** The bootstrap operator, signed in. */
  operator: TestClient;
  /** A company and a template to issue licenses for. */
  target: { companyId: string; templateId: string };
  /** Issues a license for `target`. */
  issue(terms?: Terms): Promise<IssuedLicense>;
  /** Issues a license and activates one machine from a fresh client (no cookie), as the SDK does. */
  activated(
    terms?: Terms,
    machine?: Omit<BodyOf<Client["activate"]>, "licenseKey">,
  ): Promise<{ license: IssuedLicense; activationId: string; client: TestClient }>;
  /** A signed client request (heartbeat, deactivate, machines, the leases) as the SDK signs it, at the app's clock. */
  signed<K extends Signed>(
    client: TestClient,
    operation: K,
    body: BodyOf<Client[K]>,
    options?: SignOptions,
  ): Promise<ApiResponse<ResultOf<Client[K]>>>;
}

/**
 * The set-up every client-API suite shares: a real app, a signed-in operator and a licensed company,
 * started before the file's tests and closed after them. Its fields are there once `beforeAll` ran.
 */
export function useClientApi(options: TestAppOptions = {}): ClientApiFixture {
  const fixture = {
    issue: (terms) => issueLicense(fixture.operator, fixture.target, terms),
    async activated(terms, machine = { hwFingerprint: "fp" }) {
      const license = await fixture.issue(terms);
      const client = await fixture.app.client();
      const res = await client.api.client.activate({ body: { licenseKey: license.licenseKey, ...machine } });
      if (res.status !== 200) throw new Error(`activate failed: ${res.status} ${res.text}`);
      return { license, activationId: res.body.activationId, client };
    },
    signed: (client, operation, body, signOptions) =>
      signedPost(
        client,
        fixture.app.clock.now(),
        `/api/v1${operations.client[operation].path}`,
        body as { licenseKey: string },
        signOptions,
      ),
  } as ClientApiFixture;
  beforeAll(async () => {
    fixture.app = await startTestApp(options);
    fixture.operator = await fixture.app.client({ signIn: true });
    fixture.target = await createLicensedCompany(fixture.operator);
  });
  afterAll(() => fixture.app?.close());
  return fixture;
}
