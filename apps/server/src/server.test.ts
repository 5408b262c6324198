import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createManualClock, DAY } from "@licensing/core";
import { createTestDatabase } from "@licensing/db/testing";
import { TestClient } from "@licensing/api/testing";
import { pino } from "pino";
import { describe, expect, it, vi } from "vitest";
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
      // An expired license reads as Expired at once; the sweeper, on its 50 ms interval, is what writes it
      // down. The wait only bounds a hang: a loaded machine may take longer to get there.
      expect((await operator.api.licenses.get({ params: { id: license.id } })).body.status).toBe("Expired");
      await vi.waitFor(
        async () => {
          const stored = await database.db.query.licenses.findFirst({
            where: (l, { eq }) => eq(l.id, license.id),
          });
          expect(stored!.status).toBe("Expired");
        },
        { timeout: 20_000, interval: 50 },
      );
    } finally {
      await server.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
