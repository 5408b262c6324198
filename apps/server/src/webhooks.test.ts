import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createManualClock } from "@licensing/core";
import { createTestDatabase } from "@licensing/db/testing";
import { TestClient } from "@licensing/api/testing";
import { startWebhookReceiver } from "@licensing/api/testing/webhook-receiver";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";
import { startServer } from "./server.ts";

describe("the server's webhook worker", () => {
  // The poll is an hour away and ran once, at start, before any delivery existed; the test ends long before
  // the next. So a delivery and a replay that arrive at all were sent because their commits woke the worker
  // (NOTIFY), whatever the machine's speed: the waits below only bound a hang.
  it("sends a delivery at its commit and a replay at once, woken by NOTIFY with the poll an hour away", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "licensing-webhooks-"));
    const database = await createTestDatabase();
    const clock = createManualClock(new Date());
    const secret = "server-webhook-secret-123";
    const hooks = await startWebhookReceiver({ secret, now: () => clock.now() });
    // Everything the server logs, at the most verbose level: the secret must never be among it.
    const logs: string[] = [];
    const server = await startServer(
      parseEnv({
        PORT: "0",
        DATA_DIR: dataDir,
        BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com",
        BOOTSTRAP_OPERATOR_PASSWORD: "ops-password",
        WEBHOOK_POLL_INTERVAL_SECONDS: "3600",
        WEBHOOK_ALLOW_PRIVATE: "true",
      }),
      {
        database,
        clock,
        logger: pino({ level: "trace" }, { write: (line: string) => void logs.push(line) }),
      },
    );
    try {
      const operator = new TestClient(server.url);
      await operator.login("ops@example.com", "ops-password");
      const endpoint = (
        await operator.api.webhooks.create({
          body: { url: hooks.url, secret, description: "", events: ["license.issued"] },
        })
      ).body;
      const company = (await operator.api.companies.create({ body: { name: "Acme", slug: "acme" } })).body;
      const template = (
        await operator.api.templates.create({
          body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
        })
      ).body;

      expect(
        (await operator.api.licenses.issue({ body: { companyId: company.id, templateId: template.id } }))
          .status,
      ).toBe(201);
      const [first] = await hooks.waitFor(1);
      expect(first!.verified).toEqual({ xServiceSignature: true, standardWebhooks: true });

      expect((await operator.api.webhooks.replay({ params: { deliveryId: first!.deliveryId } })).status).toBe(
        204,
      );
      const [, again] = await hooks.waitFor(2);
      expect(again!.deliveryId).toBe(first!.deliveryId);
      const deliveries = await operator.api.webhooks.deliveries({ params: { id: endpoint.id } });
      expect(deliveries.body).toMatchObject([
        { id: first!.deliveryId, status: "Succeeded", attemptCount: 1 },
      ]);
    } finally {
      await server.close();
      await hooks.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
