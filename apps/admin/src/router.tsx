import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  Outlet,
  redirect,
} from "@tanstack/react-router";
import { AnalyticsPage } from "./analytics/analytics-page.tsx";
import { analyticsSearch } from "./analytics/analytics-search.ts";
import { AcceptInvitePage } from "./auth/accept-invite-page.tsx";
import { AuditPage } from "./audit/audit-page.tsx";
import { ForgotPasswordPage, ResetPasswordPage } from "./auth/password-pages.tsx";
import { SignInPage } from "./auth/sign-in-page.tsx";
import { CompaniesPage } from "./companies/companies-page.tsx";
import { CompanyPage } from "./companies/company-page.tsx";
import { BulkIssuePage } from "./licenses/bulk-issue-page.tsx";
import { IssueLicensePage } from "./licenses/issue-license-page.tsx";
import { LicensePage } from "./licenses/license-page.tsx";
import { LicensesPage, licenseSearch } from "./licenses/licenses-page.tsx";
import { isUnauthenticated } from "./lib/errors.ts";
import type { Trpc } from "./lib/trpc.ts";
import { OperatorPage } from "./operator/operator-page.tsx";
import { operatorSearch } from "./operator/operator-search.ts";
import { ProfilePage } from "./profile/profile-page.tsx";
import { NotFound } from "./shell/not-found.tsx";
import { Shell } from "./shell/shell.tsx";
import { TemplatePage } from "./templates/template-page.tsx";
import { TemplatesPage } from "./templates/templates-page.tsx";
import { TokensPage } from "./tokens/tokens-page.tsx";
import { WebhookPage } from "./webhooks/webhook-page.tsx";
import { WebhooksPage } from "./webhooks/webhooks-page.tsx";

interface RouterContext {
  queryClient: QueryClient;
  trpc: Trpc;
}

const token = (search: Record<string, unknown>) => ({
  token: typeof search.token === "string" ? search.token : "",
});

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

const signIn = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: (search: Record<string, unknown>) => ({
    next: typeof search.next === "string" && search.next.startsWith("/") ? search.next : undefined,
  }),
  component: SignInPage,
});
const acceptInvite = createRoute({
  getParentRoute: () => rootRoute,
  path: "/accept-invite",
  validateSearch: token,
  component: AcceptInvitePage,
});
const forgotPassword = createRoute({
  getParentRoute: () => rootRoute,
  path: "/forgot-password",
  component: ForgotPasswordPage,
});
const resetPassword = createRoute({
  getParentRoute: () => rootRoute,
  path: "/reset-password",
  validateSearch: token,
  component: ResetPasswordPage,
});

/** Every page below needs a signed-in user; without one the app goes to sign-in and comes back. */
const app = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  beforeLoad: async ({ context, location }) => {
    try {
      await context.queryClient.ensureQueryData(context.trpc.auth.me.queryOptions());
    } catch (error) {
      if (isUnauthenticated(error)) throw redirect({ to: "/sign-in", search: { next: location.href } });
      throw error;
    }
  },
  component: Shell,
});

const home = createRoute({
  getParentRoute: () => app,
  path: "/",
  beforeLoad: () => {
    throw redirect({ to: "/licenses" });
  },
});
const companies = createRoute({ getParentRoute: () => app, path: "/companies", component: CompaniesPage });
const company = createRoute({
  getParentRoute: () => app,
  path: "/companies/$companyId",
  component: CompanyPage,
});
const templates = createRoute({ getParentRoute: () => app, path: "/templates", component: TemplatesPage });
const template = createRoute({
  getParentRoute: () => app,
  path: "/templates/$templateId",
  component: TemplatePage,
});
const licenses = createRoute({
  getParentRoute: () => app,
  path: "/licenses",
  validateSearch: licenseSearch,
  component: LicensesPage,
});
const issueLicense = createRoute({
  getParentRoute: () => app,
  path: "/licenses/new",
  validateSearch: (search: Record<string, unknown>) => ({
    companyId: typeof search.companyId === "string" ? search.companyId : undefined,
  }),
  component: IssueLicensePage,
});
const bulkIssue = createRoute({
  getParentRoute: () => app,
  path: "/licenses/bulk",
  component: BulkIssuePage,
});
const license = createRoute({
  getParentRoute: () => app,
  path: "/licenses/$licenseId",
  component: LicensePage,
});

const analytics = createRoute({
  getParentRoute: () => app,
  path: "/analytics",
  validateSearch: analyticsSearch,
  component: AnalyticsPage,
});
const operator = createRoute({
  getParentRoute: () => app,
  path: "/operator",
  validateSearch: operatorSearch,
  component: OperatorPage,
});
const audit = createRoute({ getParentRoute: () => app, path: "/audit", component: AuditPage });
const tokens = createRoute({ getParentRoute: () => app, path: "/tokens", component: TokensPage });
const profile = createRoute({ getParentRoute: () => app, path: "/profile", component: ProfilePage });
const webhooks = createRoute({ getParentRoute: () => app, path: "/webhooks", component: WebhooksPage });
const webhook = createRoute({
  getParentRoute: () => app,
  path: "/webhooks/$webhookId",
  component: WebhookPage,
});

const routeTree = rootRoute.addChildren([
  signIn,
  acceptInvite,
  forgotPassword,
  resetPassword,
  app.addChildren([
    home,
    companies,
    company,
    templates,
    template,
    licenses,
    issueLicense,
    bulkIssue,
    license,
    analytics,
    operator,
    audit,
    tokens,
    profile,
    webhooks,
    webhook,
  ]),
]);

export const router = createRouter({
  routeTree,
  context: undefined as unknown as RouterContext,
  defaultPreload: "intent",
  scrollRestoration: true,
});

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
