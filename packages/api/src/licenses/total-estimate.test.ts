import { BULK_MAX_ITEMS, EXACT_TOTAL_LIMIT } from "@licensing/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate } from "../testing/licensing.ts";
import { createTokenClient, seedCompany, type SeededCompany } from "../testing/fixtures.ts";

/**
 * `totalIsEstimate` on the paged license lists (decision 0005): false while `total` is a count (up to
 * EXACT_TOTAL_LIMIT matches), true once it is the planner's estimate, on REST and tRPC alike. The
 * company holds exactly the limit at first, then one license more.
 */
let app: TestApp;
let operator: TestClient;
let admin: TestClient;
let company: SeededCompany;
let busy: { id: string };
let quiet: { id: string };

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  company = await seedCompany(app);
  admin = (await createTokenClient(app, company)).client;
  busy = await createTemplate(operator);
  quiet = await createTemplate(operator);
  const items = Array.from({ length: BULK_MAX_ITEMS }, () => ({ companyId: company.id }));
  for (let issued = 0; issued < EXACT_TOTAL_LIMIT - 2; issued += BULK_MAX_ITEMS) {
    const batch = items.slice(0, Math.min(BULK_MAX_ITEMS, EXACT_TOTAL_LIMIT - 2 - issued));
    const res = await operator.api.licenses.bulkIssue({ body: { templateId: busy.id, items: batch } });
    expect(res.body.failed).toBe(0);
  }
  for (let i = 0; i < 2; i++)
    await operator.api.licenses.issue({ body: { companyId: company.id, templateId: quiet.id } });
}, 120_000);
afterAll(() => app.close());

const issueOne = () => operator.api.licenses.issue({ body: { companyId: company.id, templateId: busy.id } });

describe("totalIsEstimate on GET /panel/licenses and /operator/licenses, and over tRPC", () => {
  it("is false while the total is a count, up to the limit itself", async () => {
    const exact = { total: EXACT_TOTAL_LIMIT, totalIsEstimate: false };
    const query = { companyId: company.id, pageSize: 10 };
    expect((await admin.api.licenses.search({ query })).body).toMatchObject(exact);
    expect(await admin.trpc.licenses.search.query(query)).toMatchObject(exact);
    expect((await operator.api.operator.licenses({ query })).body).toMatchObject(exact);
    expect(await operator.trpc.operator.licenses.query(query)).toMatchObject(exact);
    // A narrow filter is counted, whatever the size of the table.
    const narrow = { companyId: company.id, templateId: quiet.id };
    expect((await admin.api.licenses.search({ query: narrow })).body).toMatchObject({
      total: 2,
      totalIsEstimate: false,
    });
    expect(await operator.trpc.operator.licenses.query(narrow)).toMatchObject({
      total: 2,
      totalIsEstimate: false,
    });
    // Nothing matches: zero, counted.
    expect(
      (await admin.api.licenses.search({ query: { search: "no company is called this" } })).body,
    ).toMatchObject({ total: 0, totalIsEstimate: false, items: [] });
  });

  it("is true once there are more matches than the limit, on every page", async () => {
    await issueOne();
    const query = { companyId: company.id, pageSize: 10 };
    const pages = [
      (await admin.api.licenses.search({ query })).body,
      await admin.trpc.licenses.search.query({ ...query, page: 50 }),
      (await operator.api.operator.licenses({ query })).body,
      await operator.trpc.operator.licenses.query({ ...query, page: 101 }),
    ];
    for (const page of pages) {
      expect(page.totalIsEstimate).toBe(true);
      expect(page.total).toBeGreaterThan(EXACT_TOTAL_LIMIT);
    }
    // The last page still has its one license: the estimate never hides what is there.
    expect(pages[3]!.items).toHaveLength(1);
    // The other filters of the same table are still counted.
    const narrow = { companyId: company.id, templateId: quiet.id };
    expect(await admin.trpc.licenses.search.query(narrow)).toMatchObject({
      total: 2,
      totalIsEstimate: false,
    });
  });
});
