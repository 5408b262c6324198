import { createLicensedCompany, issueLicense, type TestClient } from "@licensing/api/testing";
import { BULK_MAX_ITEMS, EXACT_TOTAL_LIMIT } from "@licensing/contracts";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { browserPath, expectAccessible, operatorPage, startHarness, until, type Harness } from "./harness.ts";

/**
 * The pagers of the paged lists in real Chromium against the real server: a count is shown as it is, an
 * estimate (the server's `totalIsEstimate`, past 1,000 matches: decision 0005) as "about N". One company
 * holds exactly 1,000 licenses at first, then one more.
 */
const LONG = 120_000;

let h: Harness;
let operator: TestClient;
let target: { companyId: string; templateId: string };
let page: Page;

beforeAll(async () => {
  h = await startHarness();
  operator = await h.app.client({ signIn: true });
  target = await createLicensedCompany(operator);
  const items = Array.from({ length: BULK_MAX_ITEMS }, () => ({ companyId: target.companyId }));
  for (let issued = 0; issued < EXACT_TOTAL_LIMIT; issued += BULK_MAX_ITEMS) {
    const res = await operator.api.licenses.bulkIssue({ body: { templateId: target.templateId, items } });
    expect(res.body.failed).toBe(0);
  }
  page = await operatorPage(h);
}, 240_000);
afterEach(() => h?.expectNoCspViolations());
afterAll(() => h?.close());

/** The pager's line under the table ("1,000 licenses", "about 1,001 licenses"). */
const pagerLine = (p: Page) => p.getByText(/^(about )?[\d,]+ licenses$/);

describe.skipIf(!browserPath)("paged lists in the admin app", () => {
  it("shows a count as it is, up to 1,000 matches", { timeout: LONG }, async () => {
    await page.goto(`/licenses?companyId=${target.companyId}`);
    await until(() => pagerLine(page).textContent()).toBe("1,000 licenses");
    await page.goto("/operator?tab=licenses");
    await until(() => pagerLine(page).textContent()).toBe("1,000 licenses");
  });

  it('shows "about N" where the server says the total is an estimate', { timeout: LONG }, async () => {
    const one = await issueLicense(operator, target);
    const { total, totalIsEstimate } = (
      await operator.api.licenses.search({ query: { companyId: target.companyId } })
    ).body;
    expect(totalIsEstimate).toBe(true);
    const about = (text: string | null) => /^about ([\d,]+) licenses$/.exec(text ?? "")?.[1];

    await page.goto(`/licenses?companyId=${target.companyId}`);
    await until(async () => about(await pagerLine(page).textContent())).toBeTruthy();
    const shown = Number(about(await pagerLine(page).textContent())!.replace(/,/g, ""));
    expect(shown).toBeGreaterThan(EXACT_TOTAL_LIMIT);
    // The planner's figure, as the server gave it (PostgreSQL's statistics may move it a little).
    expect(Math.abs(shown - total)).toBeLessThan(total / 2);
    await expectAccessible(page);

    await page.goto("/operator?tab=licenses");
    await until(async () => about(await pagerLine(page).textContent())).toBeTruthy();
    // A filter that matches a few is counted again.
    await page.goto(`/licenses?companyId=${target.companyId}&search=${one.licenseKey}`);
    await until(() => pagerLine(page).textContent()).toBe("1 licenses");
  });
});
