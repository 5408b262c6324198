import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations } from "../catalogue.ts";
import type { RequestOf } from "../testing/api-client.ts";
import { startTestApp, trpcError, type TestApp, type TestClient } from "../testing/index.ts";
import { createTemplate } from "../testing/licensing.ts";
import { createTokenClient, seedCompany, type SeededCompany } from "../testing/fixtures.ts";

/**
 * Keyset paging of the license lists (decision 0058): `after` = the `nextCursor` of the page before.
 * Licenses are issued in bursts at one clock instant, so many share issued_at (the order must break the
 * ties by id), and two are moved a microsecond apart (a cursor holding milliseconds would skip one).
 */
const url = "/api/v1/panel/licenses";
let app: TestApp;
let operator: TestClient;
let admin: TestClient;
let parent: SeededCompany;
let child: SeededCompany;
let stranger: SeededCompany;
let templateA: { id: string };
let templateB: { id: string };

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  parent = await seedCompany(app, { name: "Acme Holding" });
  child = await seedCompany(app, { parent, name: "Acme Robotics" });
  stranger = await seedCompany(app, { name: "Globex" });
  admin = (await createTokenClient(app, parent)).client;
  templateA = await createTemplate(operator);
  templateB = await createTemplate(operator);
  const burst = async (companyId: string, templateId: string, count: number) => {
    app.clock.advance(1000);
    const items = Array.from({ length: count }, () => ({ companyId }));
    const res = await operator.api.licenses.bulkIssue({ body: { templateId, items } });
    expect(res.body.failed).toBe(0);
  };
  await burst(child.id, templateA.id, 7);
  await burst(parent.id, templateB.id, 4);
  await burst(stranger.id, templateA.id, 6);
  await burst(child.id, templateB.id, 5);
  await burst(parent.id, templateA.id, 3);
  const [first, second] = (await search({ companyId: stranger.id })).body.items;
  await app.database.db.execute(
    sql`UPDATE licenses SET issued_at = issued_at + interval '1 microsecond' WHERE id = ${first!.id}`,
  );
  await app.database.db.execute(
    sql`UPDATE licenses SET issued_at = issued_at + interval '2 microseconds' WHERE id = ${second!.id}`,
  );
  const suspended = (await search({ companyId: child.id, pageSize: 3 })).body.items;
  for (const license of suspended) await operator.api.licenses.suspend({ params: { id: license.id } });
});
afterAll(() => app.close());

type SearchQuery = NonNullable<RequestOf<typeof operations.licenses.search>["query"]>;
function search(query: SearchQuery = {}, client = operator) {
  return client.api.licenses.search({ query });
}
const errorBody = (code: string) => ({ code, message: expect.any(String), status: 400 });

/** Every page from the first by `nextCursor`: the ids in order, and each page's `page`. */
async function walk(
  read: (
    after: string | undefined,
  ) => Promise<{ items: Array<{ id: string }>; page: number | null; nextCursor: string | null }>,
) {
  const ids: string[] = [];
  const pages: Array<number | null> = [];
  let after: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const body = await read(after);
    ids.push(...body.items.map((l) => l.id));
    pages.push(body.page);
    if (body.nextCursor === null) return { ids, pages };
    expect(body.items.length).toBeGreaterThan(0);
    after = body.nextCursor;
  }
  throw new Error("no last page");
}

/** The whole list in one page, as page=1 orders it: newest first, ties by id. */
async function whole(query: SearchQuery, client = operator) {
  const res = await search({ ...query, pageSize: 200 }, client);
  expect(res.body.nextCursor).toBeNull();
  return res.body.items.map((l) => l.id);
}

describe("after= cursor on GET /panel/licenses and /panel/operator/licenses, and over tRPC", () => {
  it("walks every matching license exactly once, in order, ties on issued_at included", async () => {
    const all = await whole({});
    expect(all).toHaveLength(25);
    // The order is total: newest first, then by id descending within one issued_at.
    // node-postgres and PGlite both answer `execute` with `{ rows }`.
    const { rows } = (await app.database.db.execute(
      sql`SELECT id FROM licenses ORDER BY issued_at DESC, id DESC`,
    )) as unknown as { rows: Array<{ id: string }> };
    expect(all).toEqual(rows.map((r) => r.id));
    for (const pageSize of [1, 2, 3, 5, 7]) {
      const { ids, pages } = await walk(async (after) => (await search({ pageSize, after })).body);
      expect(ids, `pageSize ${pageSize}`).toEqual(all);
      expect(pages).toEqual([1, ...pages.slice(1).map(() => null)]);
    }
  });

  it("follows every filter, and the Admin's subtree", async () => {
    const filters: SearchQuery[] = [
      { companyId: child.id },
      { templateId: templateA.id },
      { status: "Suspended" },
      { status: "Active" },
      { search: "acme" },
      { companyId: parent.id, templateId: templateB.id, status: "Active" },
    ];
    for (const filter of filters) {
      const all = await whole(filter);
      expect(all.length, JSON.stringify(filter)).toBeGreaterThan(0);
      const { ids } = await walk(async (after) => (await search({ ...filter, pageSize: 2, after })).body);
      expect(ids, JSON.stringify(filter)).toEqual(all);
    }
    for (const filter of [{}, { templateId: templateA.id }, { search: "SVC-" }, { companyId: child.id }]) {
      const all = await whole(filter, admin);
      const { ids } = await walk(
        async (after) => (await search({ ...filter, pageSize: 4, after }, admin)).body,
      );
      expect(ids, JSON.stringify(filter)).toEqual(all);
    }
    // The Admin of the parent sees its subtree (7 + 4 + 5 + 3), never the stranger's six.
    expect(await whole({}, admin)).toHaveLength(19);
  });

  it("pages the operator list and tRPC the same way", async () => {
    const all = await whole({ templateId: templateA.id });
    const rest = await walk(
      async (after) =>
        (await operator.api.operator.licenses({ query: { templateId: templateA.id, pageSize: 4, after } }))
          .body,
    );
    expect(rest.ids).toEqual(all);
    const trpc = await walk((after) =>
      operator.trpc.operator.licenses.query({
        templateId: templateA.id,
        pageSize: 3,
        ...(after && { after }),
      }),
    );
    expect(trpc.ids).toEqual(all);
    const admins = await walk((after) =>
      admin.trpc.licenses.search.query({ pageSize: 6, ...(after && { after }) }),
    );
    expect(admins.ids).toEqual(await whole({}, admin));
  });

  it("gives a cursor with page= too, and null on the last page, even when it is full", async () => {
    const all = await whole({ companyId: parent.id });
    expect(all).toHaveLength(7);
    const second = (await search({ companyId: parent.id, pageSize: 3, page: 2 })).body;
    expect(second.items.map((l) => l.id)).toEqual(all.slice(3, 6));
    const third = (await search({ companyId: parent.id, pageSize: 3, after: second.nextCursor! })).body;
    expect(third).toMatchObject({ page: null, pageSize: 3, nextCursor: null, total: 7 });
    expect(third.items.map((l) => l.id)).toEqual(all.slice(6));
    // Exactly full: 7 = 7 × 1, so the last page has a row and no next page.
    const sevenths = await walk(
      async (after) => (await search({ companyId: parent.id, pageSize: 7, after })).body,
    );
    expect(sevenths.pages).toEqual([1]);
    expect((await search({ companyId: parent.id, pageSize: 7, page: 2 })).body).toMatchObject({
      items: [],
      nextCursor: null,
    });
    // No match: no cursor.
    expect((await search({ search: "no company is called this" })).body.nextCursor).toBeNull();
  });

  it("refuses a malformed cursor with license.invalid_cursor", async () => {
    const b64 = (text: string) => Buffer.from(text).toString("base64url");
    const id = (await whole({}))[0]!;
    const bad = [
      "x",
      "!!!",
      b64("hello"),
      b64(`2026-11-26T09:30:00.000Z|${id}`), // milliseconds only
      b64(`2026-13-45T09:30:00.000000Z|${id}`),
      b64("2026-11-26T09:30:00.000000Z|not-a-uuid"),
      b64(`2026-11-26T09:30:00.000000Z|${id}|more`),
      `${b64(`2026-11-26T09:30:00.000000Z|${id}`)}=`,
    ];
    for (const after of bad) {
      const res = await operator.get(`${url}?after=${encodeURIComponent(after)}`);
      expect(res.error, after).toEqual(errorBody("license.invalid_cursor"));
      const op = await operator.get(`/api/v1/panel/operator/licenses?after=${encodeURIComponent(after)}`);
      expect(op.error, after).toEqual(errorBody("license.invalid_cursor"));
    }
    // Well-formed, past every license: an empty last page.
    const past = b64(`1999-01-01T00:00:00.000000Z|${id}`);
    expect((await search({ after: past })).body).toMatchObject({ items: [], nextCursor: null, page: null });
    // Even where nothing can match, the cursor is checked.
    expect((await operator.get(`${url}?search=nothing-here&after=x`)).error).toEqual(
      errorBody("license.invalid_cursor"),
    );
  });

  it("refuses page together with after with license.cursor_with_page", async () => {
    const { nextCursor } = (await search({ pageSize: 2 })).body;
    for (const page of [1, 2]) {
      const res = await operator.get(`${url}?page=${page}&after=${nextCursor!}`);
      expect(res.error).toEqual(errorBody("license.cursor_with_page"));
    }
    const op = await operator.get(`/api/v1/panel/operator/licenses?page=1&after=${nextCursor!}`);
    expect(op.error).toEqual(errorBody("license.cursor_with_page"));
    const trpc = await trpcError(operator.trpc.licenses.search.query({ page: 1, after: nextCursor! }));
    expect(trpc.data).toMatchObject({ appCode: "license.cursor_with_page", httpStatus: 400 });
  });
});
