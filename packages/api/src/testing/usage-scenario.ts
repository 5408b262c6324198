import { DAY, HOUR, MINUTE } from "@licensing/core";
import { createCompany, createMember, createTokenClient, type Member } from "./fixtures.ts";
import { issueLicense, signedPost, type IssuedLicense } from "./client-api.ts";
import type { TestClient } from "./http-client.ts";
import type { TestApp } from "./index.ts";
import { createTemplate } from "./licensing.ts";

/**
 * The world the operator-console and analytics suites (REST and tRPC) count, built over HTTP through the
 * real client API so every row is written the way production writes it:
 *
 *   Alpha (root) ─ Alpha Sub ─ Alpha Leaf        Beta (root)        Gamma (root, no licenses)
 *
 * day 0: L1 (Alpha, T1), L2 (Alpha Sub, T1), L3 (Beta, T2) issued; L1 activated on m1, L2 on m2;
 *        two heartbeats of L1.
 * day 1: L4 (Alpha Leaf, T2, trial) issued; L4 activated on m4, L1 on m3; heartbeats of L2 and L4.
 * day 2: one heartbeat of L1; L5 (Beta, T1) issued; L3 revoked; L2's activation m2 deactivated.
 * The clock ends on day 2, 03:00 UTC; day 0 is two days earlier.
 */
export interface UsageWorld {
  days: [string, string, string];
  alpha: string;
  alphaSub: string;
  alphaLeaf: string;
  beta: string;
  gamma: string;
  t1: { id: string; productCode: string };
  t2: { id: string; productCode: string };
  licenses: Record<"l1" | "l2" | "l3" | "l4" | "l5", IssuedLicense>;
  /** Viewer of Alpha Sub: sees Alpha Sub and Alpha Leaf. */
  subViewer: Member;
  /** A personal access token of Alpha Leaf. */
  leafToken: TestClient;
  /** A signed-in user with no company. */
  homeless: Member;
}

export async function buildUsageWorld(app: TestApp, operator: TestClient): Promise<UsageWorld> {
  const now = app.clock.now();
  const day0 = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  app.clock.set(new Date(day0 + HOUR));
  const alpha = (await createCompany(operator, null, { name: "Alpha", slug: "alpha" })).id;
  const alphaSub = (await createCompany(operator, alpha, { name: "Alpha Sub", slug: "alpha-sub" })).id;
  const alphaLeaf = (await createCompany(operator, alphaSub, { name: "Alpha Leaf", slug: "leaf" })).id;
  const beta = (await createCompany(operator, null, { name: "Beta", slug: "beta-co" })).id;
  const gamma = (await createCompany(operator, null, { name: "Gamma", slug: "gamma" })).id;
  const t1 = await createTemplate(operator, { name: "Editor" });
  const t2 = await createTemplate(operator, { name: "Viewer" });
  const client = await app.client();
  const activate = async (license: IssuedLicense, machine: string) => {
    const res = await client.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: machine },
    });
    if (res.status !== 200) throw new Error(`activate failed: ${res.status} ${res.text}`);
    return res.body.activationId;
  };
  const beat = async (license: IssuedLicense, activationId: string) => {
    app.clock.advance(MINUTE);
    const body = { licenseKey: license.licenseKey, activationId };
    const res = await signedPost(client, app.clock.now(), "/api/v1/client/heartbeat", body);
    if (res.status !== 200) throw new Error(`heartbeat failed: ${res.status} ${res.text}`);
  };
  const terms = { hwBinding: "none" } as const;

  const l1 = await issueLicense(operator, { companyId: alpha, templateId: t1.id }, terms);
  app.clock.advance(MINUTE);
  const l2 = await issueLicense(operator, { companyId: alphaSub, templateId: t1.id }, terms);
  app.clock.advance(MINUTE);
  const l3 = await issueLicense(operator, { companyId: beta, templateId: t2.id }, terms);
  const m1 = await activate(l1, "m1");
  const m2 = await activate(l2, "m2");
  await beat(l1, m1);
  await beat(l1, m1);

  app.clock.set(new Date(day0 + DAY + HOUR));
  const l4 = await issueLicense(
    operator,
    { companyId: alphaLeaf, templateId: t2.id },
    { ...terms, isTrial: true },
  );
  const m4 = await activate(l4, "m4");
  await activate(l1, "m3");
  await beat(l2, m2);
  await beat(l4, m4);

  app.clock.set(new Date(day0 + 2 * DAY + HOUR));
  await beat(l1, m1);
  const l5 = await issueLicense(operator, { companyId: beta, templateId: t1.id }, terms);
  const revoked = await operator.post(`/api/v1/panel/licenses/${l3.id}/revoke`, { reason: "test" });
  if (revoked.status !== 200 && revoked.status !== 204) throw new Error(`revoke failed: ${revoked.text}`);
  const gone = await signedPost(client, app.clock.now(), "/api/v1/client/deactivate", {
    licenseKey: l2.licenseKey,
    activationId: m2,
  });
  if (gone.status !== 204) throw new Error(`deactivate failed: ${gone.status} ${gone.text}`);
  app.clock.set(new Date(day0 + 2 * DAY + 3 * HOUR));

  const day = (n: number) => new Date(day0 + n * DAY).toISOString().slice(0, 10);
  return {
    days: [day(0), day(1), day(2)],
    alpha,
    alphaSub,
    alphaLeaf,
    beta,
    gamma,
    t1,
    t2,
    licenses: { l1, l2, l3, l4, l5 },
    subViewer: await createMember(app, { companyId: alphaSub, role: "viewer" }),
    leafToken: (await createTokenClient(app, { id: alphaLeaf })).client,
    homeless: await createMember(app, {}),
  };
}

/** The usage series of `days`, as `[activations, heartbeats, licensesIssued]` per day. */
export function seriesOf(body: {
  activations: Array<{ date: string; count: number }>;
  heartbeats: Array<{ date: string; count: number }>;
  licensesIssued: Array<{ date: string; count: number }>;
}) {
  return Object.fromEntries(
    body.activations.map((item, i) => [
      item.date,
      [item.count, body.heartbeats[i]!.count, body.licensesIssued[i]!.count],
    ]),
  );
}
