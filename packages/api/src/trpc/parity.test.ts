import { describe, expect, it } from "vitest";
import { restRoutes } from "../app.ts";
import { appRouter } from "./app-router.ts";

/**
 * Every panel operation the REST API offers has a tRPC procedure for the admin app, and the other way
 * round. A new REST route fails this test until it is listed here with its procedure, or as REST-only
 * with the reason.
 */
const twins: Record<string, string> = {
  "POST /panel/auth/login": "auth.login",
  "POST /panel/auth/login/2fa": "auth.loginTwoFactor",
  "POST /panel/auth/logout": "auth.logout",
  "GET /panel/auth/me": "auth.me",
  "GET /panel/auth/invite/{token}": "auth.invitation",
  "POST /panel/auth/accept-invite": "auth.acceptInvite",
  "POST /panel/auth/forgot-password": "auth.forgotPassword",
  "POST /panel/auth/reset-password": "auth.resetPassword",
  "POST /panel/auth/change-password": "auth.changePassword",
  "POST /panel/auth/2fa/enroll": "auth.twoFactor.enroll",
  "POST /panel/auth/2fa/enable": "auth.twoFactor.enable",
  "POST /panel/auth/2fa/disable": "auth.twoFactor.disable",
  "GET /panel/operator/users": "operator.users.list",
  "POST /panel/operator/users/invite": "operator.users.invite",
  "POST /panel/operator/users/{id}/promote": "operator.users.promote",
  "POST /panel/operator/users/{id}/demote": "operator.users.demote",
  "GET /panel/operator/overview": "operator.overview",
  "GET /panel/operator/tenants": "operator.tenants",
  "GET /panel/operator/licenses": "operator.licenses",
  "GET /panel/analytics/usage": "analytics.usage",
  "GET /panel/analytics/distribution": "analytics.distribution",
  "GET /panel/templates": "templates.list",
  "GET /panel/templates/{id}": "templates.get",
  "POST /panel/templates": "templates.create",
  "PUT /panel/templates/{id}": "templates.update",
  "DELETE /panel/templates/{id}": "templates.archive",
  "GET /panel/templates/{id}/versions": "templates.versions.list",
  "POST /panel/templates/{id}/versions": "templates.versions.create",
  "GET /panel/templates/{id}/signing-keys": "templates.signingKeys.list",
  "POST /panel/templates/{id}/signing-keys/rotate": "templates.signingKeys.rotate",
  "POST /panel/templates/{id}/signing-keys/{keyId}/retire": "templates.signingKeys.retire",
  "GET /panel/licenses": "licenses.search",
  "POST /panel/licenses": "licenses.issue",
  "POST /panel/licenses/bulk": "licenses.bulkIssue",
  "GET /panel/licenses/{id}": "licenses.get",
  "POST /panel/licenses/{id}/revoke": "licenses.revoke",
  "POST /panel/licenses/{id}/suspend": "licenses.suspend",
  "POST /panel/licenses/{id}/resume": "licenses.resume",
  "POST /panel/licenses/{id}/transfer": "licenses.transfer",
  "POST /panel/licenses/{id}/rebind": "licenses.rebind",
  "GET /panel/licenses/{id}/public-key": "licenses.publicKey",
  "GET /panel/licenses/{id}/activations": "activations.list",
  "GET /panel/licenses/{id}/heartbeats": "activations.heartbeats",
  "POST /panel/licenses/{id}/activations/{activationId}/reset": "activations.reset",
  "GET /panel/companies": "companies.list",
  "GET /panel/companies/{id}": "companies.get",
  "GET /panel/companies/{id}/children": "companies.children",
  "GET /panel/companies/{id}/subtree": "companies.subtree",
  "POST /panel/companies": "companies.create",
  "POST /panel/companies/{id}/reparent": "companies.reparent",
  "DELETE /panel/companies/{id}": "companies.archive",
  "GET /panel/users": "users.list",
  "POST /panel/users/invite": "users.invite",
  "POST /panel/users/{id}/resend-invite": "users.resendInvite",
  "DELETE /panel/users/{id}": "users.deactivate",
  "GET /panel/api-tokens": "apiTokens.list",
  "POST /panel/api-tokens": "apiTokens.create",
  "DELETE /panel/api-tokens/{id}": "apiTokens.revoke",
  "GET /panel/audit": "audit.list",
  "GET /panel/webhooks/event-types": "webhooks.eventTypes",
  "GET /panel/webhooks": "webhooks.list",
  "POST /panel/webhooks": "webhooks.create",
  "GET /panel/webhooks/{id}": "webhooks.get",
  "PATCH /panel/webhooks/{id}": "webhooks.update",
  "DELETE /panel/webhooks/{id}": "webhooks.delete",
  "GET /panel/webhooks/{id}/deliveries": "webhooks.deliveries",
  "POST /panel/webhooks/deliveries/{deliveryId}/replay": "webhooks.replay",
};

/** REST routes with no procedure, on purpose. */
const restOnly: Record<string, string> = {
  "GET /panel/licenses/{id}/download":
    "a file download (<licenseKey>.lic as an attachment): the admin app links to it with its cookie",
  "GET /panel/audit/export": "a streamed CSV or JSON file: the admin app links to it with its cookie",
  "POST /client/activate": "the client API: the SDK speaks HMAC-signed HTTP, not tRPC",
  "POST /client/heartbeat": "the client API",
  "POST /client/deactivate": "the client API",
  "GET /client/public-key/{licenseKey}": "the client API",
};

/** Procedures with no REST route, on purpose. */
const trpcOnly: Record<string, string> = {
  "licenses.file": "the download's content as data (the admin app shows and copies it)",
};

const routeKey = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;
const procedures = Object.keys(appRouter._def.procedures);

describe("REST and tRPC parity", () => {
  it("every REST route has its procedure, or is REST-only with a reason", () => {
    const unlisted = restRoutes.map(routeKey).filter((key) => !(key in twins) && !(key in restOnly));
    expect(unlisted).toEqual([]);
    const missing = Object.entries(twins).filter(([, name]) => !procedures.includes(name));
    expect(missing).toEqual([]);
  });

  it("every procedure answers a REST route, or is tRPC-only with a reason", () => {
    const answered = new Set(Object.values(twins));
    expect(procedures.filter((name) => !answered.has(name) && !(name in trpcOnly))).toEqual([]);
  });

  it("lists no route or procedure that does not exist", () => {
    const routes = new Set(restRoutes.map(routeKey));
    expect([...Object.keys(twins), ...Object.keys(restOnly)].filter((key) => !routes.has(key))).toEqual([]);
    expect(Object.keys(trpcOnly).filter((name) => !procedures.includes(name))).toEqual([]);
  });

  it("every procedure declares its output schema", () => {
    const untyped = procedures.filter((name) => {
      const procedure = (
        appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown } }>
      )[name]!;
      return procedure._def.output === undefined;
    });
    expect(untyped).toEqual([]);
  });
});
