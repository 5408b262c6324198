import { ADMIN_PAGE_ROOTS } from "@licensing/contracts";
import { describe, expect, it } from "vitest";
import { router } from "./router.tsx";

// The server serves index.html only under ADMIN_PAGE_ROOTS (decision 0054): every page of the router must
// sit under one of them, and each of them must be a page, or a deep link would get the server's 404.
describe("the admin app's page roots", () => {
  it("are exactly the first segments of the router's pages", () => {
    const paths = Object.keys(router.routesByPath);
    expect(paths.length).toBeGreaterThan(10);
    const roots = new Set(paths.map((path) => path.split("/")[1] ?? ""));
    expect([...roots].sort()).toEqual([...ADMIN_PAGE_ROOTS].sort());
  });
});
