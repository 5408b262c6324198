import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, trpcError, type TestApp, type TestClient } from "../testing/index.ts";
import { seedCompany, createTokenClient } from "../testing/fixtures.ts";

let app: TestApp;
let operator: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
});
afterAll(() => app.close());

describe("/trpc templates", () => {
  it("runs the whole template lifecycle with the same results as REST", async () => {
    const templates = operator.trpc.templates;
    const template = await templates.create.mutate({
      name: "Via tRPC",
      productCode: "TRPC-1",
      defaultOfflineDays: 99,
      defaultValidityDays: 30,
    });
    expect(template).toMatchObject({ productCode: "TRPC-1", defaultOfflineDays: 30, status: "Active" });

    const updated = await templates.update.mutate({ id: template.id, name: "Renamed" });
    expect(updated.name).toBe("Renamed");

    const version = await templates.versions.create.mutate({
      id: template.id,
      configSchema: '{"type":"object"}',
      changelog: "v1",
    });
    expect(version).toMatchObject({ version: 1, templateId: template.id });
    expect(await templates.versions.list.query({ id: template.id })).toHaveLength(1);

    const rotated = await templates.signingKeys.rotate.mutate({ id: template.id });
    const keys = await templates.signingKeys.list.query({ id: template.id });
    const inactive = keys.find((k) => k.status === "Inactive")!;
    expect(keys[0]!.id).toBe(rotated.id);
    await templates.signingKeys.retire.mutate({ id: template.id, keyId: inactive.id });

    await templates.archive.mutate({ id: template.id });
    const rest = await operator.api.templates.get({ params: { id: template.id } });
    expect(rest.body).toMatchObject({ name: "Renamed", status: "Archived", currentVersionId: version.id });
    const list = await templates.list.query({ status: "Archived" });
    expect(list.map((t) => t.id)).toEqual([template.id]);
  });

  it("maps domain errors to tRPC codes with the spec's code alongside", async () => {
    const admin = (await createTokenClient(app, await seedCompany(app))).client.trpc;
    const forbidden = await trpcError(
      admin.templates.create.mutate({
        name: "x",
        productCode: "NOPE",
        defaultOfflineDays: 1,
        defaultValidityDays: 1,
      }),
    );
    expect(forbidden.data.httpStatus).toBe(403);
    expect(forbidden.data).toMatchObject({ code: "FORBIDDEN", appCode: "auth.operator_required" });
    const missing = await trpcError(
      admin.templates.get.query({ id: "00000000-0000-4000-8000-000000000000" }),
    );
    expect(missing.data.httpStatus).toBe(404);
    expect(missing.data.appCode).toBe("template.not_found");
    const template = await operator.trpc.templates.create.mutate({
      name: "x",
      productCode: "TRPC-2",
      defaultOfflineDays: 1,
      defaultValidityDays: 1,
    });
    const badSchema = await trpcError(
      operator.trpc.templates.versions.create.mutate({ id: template.id, configSchema: "{oops" }),
    );
    expect(badSchema.data.httpStatus).toBe(400);
    expect(badSchema.data.appCode).toBe("template.invalid_config_schema");
    expect(badSchema.message).toContain("line 1, column 2");
  });
});
