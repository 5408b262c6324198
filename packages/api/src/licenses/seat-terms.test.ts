import { describe, expect, it } from "vitest";
import { useClientApi } from "../testing/client-fixture.ts";

/** Issue 23 §1: the seat terms on templates and licenses, and in the token (sm, ls, mb). */
const suite = useClientApi();

let codes = 0;
const template = (fields: Record<string, unknown> = {}) =>
  suite.operator.api.templates.create({
    body: {
      name: "Seats",
      productCode: `SEATS-${process.pid}-${++codes}`,
      defaultOfflineDays: 7,
      defaultValidityDays: 30,
      ...fields,
    },
  });

const claims = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

describe("seat terms on templates", () => {
  it("default to node-locked, 900-second leases and no borrowing, and take the fields on create and update", async () => {
    const created = await template();
    expect(created.body).toMatchObject({ seatModel: "nodeLocked", leaseSeconds: 900, maxBorrowDays: 0 });
    const updated = await suite.operator.api.templates.update({
      params: { id: created.body.id },
      body: { seatModel: "floating", leaseSeconds: 60, maxBorrowDays: 30 },
    });
    expect(updated.body).toMatchObject({ seatModel: "floating", leaseSeconds: 60, maxBorrowDays: 30 });
    const floating = await template({ seatModel: "floating", leaseSeconds: 86_400, maxBorrowDays: 7 });
    expect(floating.status, floating.text).toBe(201);
    expect((await suite.operator.api.templates.get({ params: { id: floating.body.id } })).body).toMatchObject(
      {
        seatModel: "floating",
        leaseSeconds: 86_400,
        maxBorrowDays: 7,
      },
    );
  });

  it.each([
    ["seatModel", "concurrent"],
    ["leaseSeconds", 59],
    ["leaseSeconds", 86_401],
    ["leaseSeconds", 900.5],
    ["maxBorrowDays", -1],
    ["maxBorrowDays", 31],
    ["maxBorrowDays", "7"],
  ])("refuses %s %j with request.invalid naming the field", async (field, value) => {
    const res = await template({ [field]: value });
    expect([res.status, res.error.code]).toEqual([400, "request.invalid"]);
    expect(res.error.message).toContain(`body.${field}`);
    const existing = await template();
    const update = await suite.operator.api.templates.update({
      params: { id: existing.body.id },
      body: { [field]: value } as never,
    });
    expect([update.status, update.error.code]).toEqual([400, "request.invalid"]);
  });
});

describe("seat terms on licenses", () => {
  it("come from the template unless the issue request overrides them; the response and token carry them", async () => {
    const floating = await template({ seatModel: "floating", leaseSeconds: 600, maxBorrowDays: 5 });
    const templateId = floating.body.id;
    const inherited = await suite.issue({ templateId });
    const overridden = await suite.issue({
      templateId,
      seatModel: "nodeLocked",
      leaseSeconds: 120,
      maxBorrowDays: 0,
    });
    const view = async (id: string) => (await suite.operator.api.licenses.get({ params: { id } })).body;
    expect(await view(inherited.id)).toMatchObject({
      seatModel: "floating",
      leaseSeconds: 600,
      maxBorrowDays: 5,
    });
    expect(claims(inherited.token)).toMatchObject({ sm: "floating", ls: 600, mb: 5 });
    expect(await view(overridden.id)).toMatchObject({
      seatModel: "nodeLocked",
      leaseSeconds: 120,
      maxBorrowDays: 0,
    });
    expect(claims(overridden.token)).toMatchObject({ sm: "nodeLocked", ls: 120, mb: 0 });
    // A later template edit leaves issued licenses as they were.
    await suite.operator.api.templates.update({
      params: { id: templateId },
      body: { seatModel: "nodeLocked" },
    });
    expect((await view(inherited.id)).seatModel).toBe("floating");
    const page = await suite.operator.api.licenses.search({ query: { templateId } });
    expect(page.body.items.map((l) => l.seatModel).sort()).toEqual(["floating", "nodeLocked"]);
  });

  it("bulk issue takes the overrides for every item", async () => {
    const res = await suite.operator.api.licenses.bulkIssue({
      body: {
        templateId: suite.target.templateId,
        items: [{ companyId: suite.target.companyId }, { companyId: suite.target.companyId }],
        seatModel: "floating",
        maxBorrowDays: 3,
      },
    });
    for (const row of res.body.results) {
      const license = await suite.operator.api.licenses.get({ params: { id: row.licenseId! } });
      expect(license.body).toMatchObject({ seatModel: "floating", leaseSeconds: 900, maxBorrowDays: 3 });
    }
  });

  it("a transfer or rebind re-signs the token with the same seat terms", async () => {
    const license = await suite.issue({ seatModel: "floating", leaseSeconds: 300, maxBorrowDays: 2 });
    const rebound = await suite.operator.api.licenses.rebind({
      params: { id: license.id },
      body: { hwFingerprint: null },
    });
    expect(rebound.body).toMatchObject({ seatModel: "floating", leaseSeconds: 300, maxBorrowDays: 2 });
    const file = await suite.operator.api.licenses.file({ params: { id: license.id } });
    expect(claims(file.body.token)).toMatchObject({ ver: 2, sm: "floating", ls: 300, mb: 2 });
  });

  it.each([
    ["seatModel", "concurrent"],
    ["leaseSeconds", 30],
    ["maxBorrowDays", 45],
  ])("refuses an issue with %s %j", async (field, value) => {
    const res = await suite.operator.api.licenses.issue({
      body: { ...suite.target, [field]: value } as never,
    });
    expect([res.status, res.error.code]).toEqual([400, "request.invalid"]);
    expect(res.error.message).toContain(`body.${field}`);
  });
});
