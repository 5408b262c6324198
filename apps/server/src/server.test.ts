import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createManualClock, DAY } from "@licensing/core";
import { createTestDatabase } from "@licensing/db/testing";
import { TestClient } from "@licensing/api/testing";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";
import { startServer } from "./server.ts";

describe("startServer", () => {
  it("runs the expiry sweeper on its interval inside the server", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "licensing-server-"));
    const database = await createTestDatabase();
    const clock = createManualClock(new Date());
    const server = await startServer(
      parseEnv({
        PORT: "0",
        DATA_DIR: dataDir,
        BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com",
        BOOTSTRAP_OPERATOR_PASSWORD: "ops-password",
      }),
      { database, clock, logger: pino({ level: "silent" }), sweepIntervalMs: 50 },
    );
    try {
      const operator = new TestClient(server.url);
      await operator.login("ops@example.com", "ops-password");
      const company = (await operator.api.companies.create({ body: { name: "Acme", slug: "acme" } })).body;
      const template = (
        await operator.api.templates.create({
          body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
        })
      ).body;
      const license = (
        await operator.api.licenses.issue({
          body: {
            companyId: company.id,
            templateId: template.id,
            expiresAt: new Date(clock.now().getTime() + DAY).toISOString(),
          },
        })
      ).body;

      clock.advance(DAY + 1000);
      let status = "Active";
      for (let i = 0; i < 100 && status !== "Expired"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const row = await operator.api.licenses.get({ params: { id: license.id } });
        // An expired license reads as Expired at once; the sweeper is what writes it down.
        const stored = await database.db.query.licenses.findFirst({
          where: (l, { eq }) => eq(l.id, license.id),
        });
        status = stored!.status;
        expect(row.body.status).toBe("Expired");
      }
      expect(status).toBe("Expired");
    } finally {
      await server.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
