/**
 * The first path segment of every page of the admin app (`""` is `/` itself). The server answers a page
 * load with the app's index.html only under these, so an unknown path (`/metrics2`, `/.env`, `/wp-login.php`)
 * gets a 404 instead of the app (decision 0054). `apps/admin/src/admin-pages.test.ts` holds this list to the
 * app's router: a new top-level page needs its segment here.
 */
export const ADMIN_PAGE_ROOTS: readonly string[] = [
  "",
  "sign-in",
  "accept-invite",
  "forgot-password",
  "reset-password",
  "companies",
  "templates",
  "licenses",
  "analytics",
  "operator",
  "audit",
  "tokens",
  "profile",
  "webhooks",
];
