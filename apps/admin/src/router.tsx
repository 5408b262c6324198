import type { QueryClient } from "@tanstack/react-query";
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from "@tanstack/react-router";
import { z } from "zod";
import { AnalyticsSearch } from "./analytics/analytics-search.ts";
import { AcceptInvitePage } from "./auth/accept-invite-page.tsx";
import { ForgotPasswordPage, ResetPasswordPage } from "./auth/password-pages.tsx";
import { SignInPage } from "./auth/sign-in-page.tsx";
import { LicenseSearch } from "./licenses/license-search.ts";
import { LicensesPage } from "./licenses/licenses-page.tsx";
import { isUnauthenticated } from "./lib/errors.ts";
import type { Trpc } from "./lib/trpc.ts";
import { id } from "./lib/search.ts";
import { OperatorSearch } from "./operator/operator-search.ts";
import { NotFound } from "./shell/not-found.tsx";
import { Shell } from "./shell/shell.tsx";

// Signing in and the license list (where a session lands) are in the first download; every other page is
// a chunk of its own, fetched when a link to it is hovered (defaultPreload "intent") or opened.

interface RouterContext {
  queryClient: QueryClient;
  trpc: Trpc;
}

// Each page's URL search parameters, parsed by its zod schema (a value that does not parse is left out).
/** The one-time token of an emailed link ("" when the link has none: the page says so). */
const TokenSearch = z.object({ token: z.string().default("").catch("") });
/** Where to go after signing in: a path of this app (`//host/…` would be another site's). */
const SignInSearch = z.object({
  next: z
    .string()
    .regex(/^\/(?!\/)/)
    .optional()
    .catch(undefined),
});

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

const signIn = createRoute({
  getParentRoute: () => rootRoute,
  path: "/sign-in",
  validateSearch: SignInSearch,
  component: SignInPage,
});
const acceptInvite = createRoute({
  getParentRoute: () => rootRoute,
  path: "/accept-invite",
  validateSearch: TokenSearch,
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
  validateSearch: TokenSearch,
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
const companies = createRoute({
  getParentRoute: () => app,
  path: "/companies",
  component: lazyRouteComponent(() => import("./companies/companies-page.tsx"), "CompaniesPage"),
});
const company = createRoute({
  getParentRoute: () => app,
  path: "/companies/$companyId",
  component: lazyRouteComponent(() => import("./companies/company-page.tsx"), "CompanyPage"),
});
const templates = createRoute({
  getParentRoute: () => app,
  path: "/templates",
  component: lazyRouteComponent(() => import("./templates/templates-page.tsx"), "TemplatesPage"),
});
const template = createRoute({
  getParentRoute: () => app,
  path: "/templates/$templateId",
  component: lazyRouteComponent(() => import("./templates/template-page.tsx"), "TemplatePage"),
});
const licenses = createRoute({
  getParentRoute: () => app,
  path: "/licenses",
  validateSearch: LicenseSearch,
  component: LicensesPage,
});
const issueLicense = createRoute({
  getParentRoute: () => app,
  path: "/licenses/new",
  validateSearch: z.object({ companyId: id }),
  component: lazyRouteComponent(() => import("./licenses/issue-license-page.tsx"), "IssueLicensePage"),
});
const bulkIssue = createRoute({
  getParentRoute: () => app,
  path: "/licenses/bulk",
  component: lazyRouteComponent(() => import("./licenses/bulk/bulk-issue-page.tsx"), "BulkIssuePage"),
});
const license = createRoute({
  getParentRoute: () => app,
  path: "/licenses/$licenseId",
  component: lazyRouteComponent(() => import("./licenses/license-page.tsx"), "LicensePage"),
});

const analytics = createRoute({
  getParentRoute: () => app,
  path: "/analytics",
  validateSearch: AnalyticsSearch,
  component: lazyRouteComponent(() => import("./analytics/analytics-page.tsx"), "AnalyticsPage"),
});
const operator = createRoute({
  getParentRoute: () => app,
  path: "/operator",
  validateSearch: OperatorSearch,
  component: lazyRouteComponent(() => import("./operator/operator-page.tsx"), "OperatorPage"),
});
const audit = createRoute({
  getParentRoute: () => app,
  path: "/audit",
  component: lazyRouteComponent(() => import("./audit/audit-page.tsx"), "AuditPage"),
});
const tokens = createRoute({
  getParentRoute: () => app,
  path: "/tokens",
  component: lazyRouteComponent(() => import("./tokens/tokens-page.tsx"), "TokensPage"),
});
const profile = createRoute({
  getParentRoute: () => app,
  path: "/profile",
  component: lazyRouteComponent(() => import("./profile/profile-page.tsx"), "ProfilePage"),
});
const webhooks = createRoute({
  getParentRoute: () => app,
  path: "/webhooks",
  component: lazyRouteComponent(() => import("./webhooks/webhooks-page.tsx"), "WebhooksPage"),
});
const webhook = createRoute({
  getParentRoute: () => app,
  path: "/webhooks/$webhookId",
  component: lazyRouteComponent(() => import("./webhooks/webhook-page.tsx"), "WebhookPage"),
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
