/**
 * The spec's "Minimum roles per operation" table (§5), row by row, for each kind of caller. Rows whose
 * endpoints belong to later issues (webhooks, analytics) are added to `rows` by them.
 */
import { randomBytes } from "node:crypto";
import { tables } from "@licensing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLicense, signedPost } from "./testing/client-api.ts";
import { startTestApp, type ApiResponse, type TestApp, type TestClient } from "./testing/index.ts";
import { createTemplate } from "./testing/licensing.ts";
import {
  createCompany,
  createMember,
  createTokenClient,
  uniqueEmail,
  uniqueSlug,
  type CompanyBody,
} from "./testing/fixtures.ts";

const who = ["operator", "owner", "admin", "viewer", "sibling", "token"] as const;
type Who = (typeof who)[number];
/** A status, or a status with the error code the body must carry. */
type Outcome =
  | "200"
  | "201"
  | "204"
  | "404"
  | "403 auth.forbidden"
  | "403 auth.operator_required"
  | "403 auth.company_out_of_scope";

interface Tree {
  root: CompanyBody;
  /** The company of owner, admin, viewer and the token. */
  a: CompanyBody;
  a1: CompanyBody;
  /** The sibling subtree, where `sibling` is an Admin. */
  b: CompanyBody;
}
interface Row {
  operation: string;
  minimum: string;
  /** Sends the request with a caller's `api`; it may first create a fresh target, so every caller acts on its own. */
  send(api: TestClient["api"], tree: Tree): Promise<ApiResponse<unknown>>;
  expect: Record<Who, Outcome>;
}

const everyone = (outcome: Outcome): Record<Who, Outcome> =>
  Object.fromEntries(who.map((w) => [w, outcome])) as Record<Who, Outcome>;
const operatorOnly: Record<Who, Outcome> = { ...everyone("403 auth.operator_required"), operator: "200" };
/** Viewer on the target company: everyone in the subtree may, the sibling does not see it. */
const viewerRow = (ok: Outcome): Record<Who, Outcome> => ({ ...everyone(ok), sibling: "404" });
/** Admin on the target company. */
const adminRow = (ok: Outcome): Record<Who, Outcome> => ({
  ...everyone(ok),
  viewer: "403 auth.forbidden",
  sibling: "404",
});

let app: TestApp;
const fresh = {
  async user(tree: Tree, fields: Partial<typeof tables.users.$inferInsert> = {}) {
    const [row] = await app.deps.db
      .insert(tables.users)
      .values({
        email: uniqueEmail("target"),
        status: "active",
        companyId: tree.a1.id,
        role: "viewer",
        createdAt: app.clock.now(),
        ...fields,
      })
      .returning();
    return row!.id;
  },
  /** A license of a1 (issued by the operator) with one live activation. */
  async license(tree: Tree) {
    templateId ??= (await createTemplate(operatorClient)).id;
    const license = await issueLicense(operatorClient, { companyId: tree.a1.id, templateId });
    const activation = await operatorClient.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "matrix" },
    });
    return { id: license.id, activationId: activation.body.activationId };
  },
  /** A floating license of a1 whose one machine holds a lease. */
  async lease(tree: Tree) {
    templateId ??= (await createTemplate(operatorClient)).id;
    const license = await issueLicense(
      operatorClient,
      { companyId: tree.a1.id, templateId },
      { seatModel: "floating" },
    );
    const activation = await operatorClient.api.client.activate({
      body: { licenseKey: license.licenseKey, hwFingerprint: "matrix" },
    });
    const lease = await signedPost<{ leaseId: string }>(
      operatorClient,
      app.clock.now(),
      "/api/v1/client/leases",
      {
        licenseKey: license.licenseKey,
        activationId: activation.body.activationId,
      },
    );
    return { licenseId: license.id, leaseId: lease.body.leaseId };
  },
  async token(tree: Tree) {
    const [row] = await app.deps.db
      .insert(tables.apiTokens)
      .values({
        name: "target",
        companyId: tree.a1.id,
        prefix: "svc_pat_xxxxxx",
        secretHash: randomBytes(32).toString("hex"),
        createdAt: app.clock.now(),
      })
      .returning();
    return row!.id;
  },
};

let operatorClient: TestClient;
let templateId: string | undefined;
const rows: Row[] = [
  // Companies
  {
    operation: "list companies",
    minimum: "any",
    send: (api) => api.companies.list(),
    expect: everyone("200"),
  },
  {
    operation: "read a company",
    minimum: "Viewer",
    send: (api, t) => api.companies.get({ params: { id: t.a1.id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "read a company's children",
    minimum: "Viewer",
    send: (api, t) => api.companies.children({ params: { id: t.a.id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "read a company's subtree",
    minimum: "Viewer",
    send: (api, t) => api.companies.subtree({ params: { id: t.a.id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "create a root company",
    minimum: "Operator",
    send: (api) => api.companies.create({ body: { name: "root", slug: uniqueSlug() } }),
    expect: { ...operatorOnly, operator: "201" },
  },
  {
    operation: "reparent",
    minimum: "Operator",
    send: (api, t) => api.companies.reparent({ params: { id: t.a1.id }, body: { newParentId: t.a.id } }),
    expect: operatorOnly,
  },
  {
    operation: "create a child company",
    minimum: "Admin on the parent",
    send: (api, t) => api.companies.create({ body: { name: "c", slug: uniqueSlug(), parentId: t.a.id } }),
    expect: adminRow("201"),
  },
  {
    operation: "archive a company",
    minimum: "Owner",
    send: async (api, t) =>
      api.companies.archive({ params: { id: (await createCompany(operatorClient, t.a1.id)).id } }),
    expect: { ...adminRow("204"), admin: "403 auth.forbidden", token: "403 auth.forbidden" },
  },
  // Users
  {
    operation: "list users",
    minimum: "Admin",
    send: (api, t) => api.users.list({ query: { companyId: t.a.id } }),
    expect: { ...adminRow("200"), sibling: "403 auth.company_out_of_scope" },
  },
  {
    operation: "invite a user",
    minimum: "Admin",
    send: (api, t) =>
      api.users.invite({ body: { email: uniqueEmail(), companyId: t.a1.id, role: "viewer" } }),
    expect: adminRow("201"),
  },
  {
    operation: "invite a user with the owner role",
    minimum: "Owner",
    send: (api, t) => api.users.invite({ body: { email: uniqueEmail(), companyId: t.a1.id, role: "owner" } }),
    expect: { ...adminRow("201"), admin: "403 auth.forbidden", token: "403 auth.forbidden" },
  },
  {
    operation: "resend an invitation",
    minimum: "Admin",
    send: async (api, t) =>
      api.users.resendInvite({ params: { id: await fresh.user(t, { status: "pending" }) } }),
    expect: adminRow("204"),
  },
  {
    operation: "deactivate a user",
    minimum: "Admin",
    send: async (api, t) => api.users.deactivate({ params: { id: await fresh.user(t) } }),
    expect: adminRow("204"),
  },
  {
    operation: "deactivate an operator",
    minimum: "Operator",
    send: async (api, t) =>
      api.users.deactivate({ params: { id: await fresh.user(t, { isOperator: true }) } }),
    expect: {
      operator: "204",
      owner: "403 auth.operator_required",
      admin: "403 auth.operator_required",
      token: "403 auth.operator_required",
      viewer: "403 auth.forbidden",
      sibling: "404",
    },
  },
  // API tokens
  {
    operation: "list API tokens",
    minimum: "any",
    send: (api) => api.apiTokens.list(),
    expect: everyone("200"),
  },
  {
    operation: "list API tokens with a company filter",
    minimum: "any, filter in scope",
    send: (api, t) => api.apiTokens.list({ query: { companyId: t.a.id } }),
    expect: { ...everyone("200"), sibling: "403 auth.company_out_of_scope" },
  },
  {
    operation: "create an API token",
    minimum: "Admin on the target company",
    send: (api, t) => api.apiTokens.create({ body: { name: "m", companyId: t.a1.id } }),
    expect: adminRow("201"),
  },
  {
    operation: "revoke an API token",
    minimum: "Admin on the target company",
    send: async (api, t) => api.apiTokens.revoke({ params: { id: await fresh.token(t) } }),
    expect: adminRow("204"),
  },
  // Licenses, activations and templates
  {
    operation: "search licenses",
    minimum: "any (scoped)",
    send: (api) => api.licenses.search(),
    expect: everyone("200"),
  },
  {
    operation: "read a license",
    minimum: "Viewer",
    send: async (api, t) => api.licenses.get({ params: { id: (await fresh.license(t)).id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "read a license's activations",
    minimum: "Viewer",
    send: async (api, t) => api.activations.list({ params: { id: (await fresh.license(t)).id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "read a license's heartbeats",
    minimum: "Viewer",
    send: async (api, t) => api.activations.heartbeats({ params: { id: (await fresh.license(t)).id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "download a license file",
    minimum: "Viewer",
    send: async (api, t) => api.licenses.file({ params: { id: (await fresh.license(t)).id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "read a license's public key",
    minimum: "Viewer",
    send: async (api, t) => api.licenses.publicKey({ params: { id: (await fresh.license(t)).id } }),
    expect: viewerRow("200"),
  },
  {
    operation: "issue a license",
    minimum: "Admin on the company",
    send: async (api, t) => {
      templateId ??= (await createTemplate(operatorClient)).id;
      return api.licenses.issue({ body: { companyId: t.a1.id, templateId } });
    },
    expect: { ...adminRow("201"), sibling: "404" },
  },
  {
    operation: "revoke a license",
    minimum: "Admin on the company",
    send: async (api, t) => api.licenses.revoke({ params: { id: (await fresh.license(t)).id }, body: {} }),
    expect: adminRow("204"),
  },
  {
    operation: "rebind a license",
    minimum: "Admin on the company",
    send: async (api, t) =>
      api.licenses.rebind({
        params: { id: (await fresh.license(t)).id },
        body: { hwFingerprint: "new-machine" },
      }),
    expect: adminRow("200"),
  },
  {
    operation: "reset an activation",
    minimum: "Admin on the company",
    send: async (api, t) => {
      const license = await fresh.license(t);
      return api.activations.reset({ params: { id: license.id, activationId: license.activationId } });
    },
    expect: adminRow("204"),
  },
  {
    operation: "reset a device budget",
    minimum: "Admin on the company",
    send: async (api, t) =>
      api.activations.resetDeviceBudget({ params: { id: (await fresh.license(t)).id } }),
    expect: adminRow("204"),
  },
  {
    operation: "list a license's leases",
    minimum: "Viewer on the company",
    send: async (api, t) => api.leases.list({ params: { id: (await fresh.lease(t)).licenseId } }),
    expect: viewerRow("200"),
  },
  {
    operation: "force-release a lease",
    minimum: "Admin on the company",
    send: async (api, t) => api.leases.forceRelease({ params: { leaseId: (await fresh.lease(t)).leaseId } }),
    expect: adminRow("204"),
  },
  {
    operation: "read templates",
    minimum: "any",
    send: (api) => api.templates.list(),
    expect: everyone("200"),
  },
  {
    operation: "write templates",
    minimum: "Operator",
    send: (api) =>
      api.templates.create({
        body: { name: "T", productCode: uniqueSlug("P"), defaultOfflineDays: 7, defaultValidityDays: 30 },
      }),
    expect: { ...operatorOnly, operator: "201" },
  },
  // Webhooks
  {
    operation: "read event types",
    minimum: "any",
    send: (api) => api.webhooks.eventTypes(),
    expect: everyone("200"),
  },
  {
    operation: "read webhooks",
    minimum: "Operator",
    send: (api) => api.webhooks.list(),
    expect: operatorOnly,
  },
  {
    operation: "write webhooks",
    minimum: "Operator",
    send: (api) =>
      api.webhooks.create({
        // An address literal: the SSRF check needs no DNS, and it is public.
        body: { url: "https://93.184.216.34/hooks", secret: "0123456789abcdef", events: ["license.issued"] },
      }),
    expect: { ...operatorOnly, operator: "201" },
  },
  // Audit and the operator group
  {
    operation: "read the audit log",
    minimum: "Operator",
    send: (api) => api.audit.list(),
    expect: operatorOnly,
  },
  {
    operation: "export the audit log",
    minimum: "Operator",
    send: (api) => api.audit.export({ query: { action: "none" } }),
    expect: operatorOnly,
  },
  {
    operation: "operator group: list operators",
    minimum: "Operator",
    send: (api) => api.operator.users.list(),
    expect: operatorOnly,
  },
  {
    operation: "operator group: invite an operator",
    minimum: "Operator",
    send: (api) => api.operator.users.invite({ body: { email: uniqueEmail("op") } }),
    expect: operatorOnly,
  },
];

let tree: Tree;
const clients = {} as Record<Who, TestClient>;

beforeAll(async () => {
  app = await startTestApp();
  operatorClient = await app.client({ signIn: true });
  const root = await createCompany(operatorClient, null);
  const a = await createCompany(operatorClient, root.id);
  tree = {
    root,
    a,
    a1: await createCompany(operatorClient, a.id),
    b: await createCompany(operatorClient, root.id),
  };
  clients.operator = operatorClient;
  clients.owner = (await createMember(app, { companyId: a.id, role: "owner" })).client;
  clients.admin = (await createMember(app, { companyId: a.id, role: "admin" })).client;
  clients.viewer = (await createMember(app, { companyId: a.id, role: "viewer" })).client;
  clients.sibling = (await createMember(app, { companyId: tree.b.id, role: "admin" })).client;
  clients.token = (await createTokenClient(app, a, { creator: operatorClient })).client;
});
afterAll(() => app.close());

describe("minimum roles per operation (spec §5)", () => {
  const cases = rows.flatMap((row) => who.map((w) => ({ row, who: w, outcome: row.expect[w] })));
  it.each(cases)(
    "$row.operation ($row.minimum) as $who → $outcome",
    async ({ row, who: caller, outcome }) => {
      const res = await row.send(clients[caller].api, tree);
      const [status, code] = outcome.split(" ");
      expect({ status: res.status, code: res.status >= 400 ? res.error.code : undefined }).toEqual({
        status: Number(status),
        code: code ?? (res.status >= 400 ? expect.any(String) : undefined),
      });
    },
  );
});
