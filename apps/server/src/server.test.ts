import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createManualClock, DAY } from "@licensing/core";
import { createTestDatabase } from "@licensing/db/testing";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";
import { startServer } from "./server.ts";

const json = (url: string, init: RequestInit & { cookie?: string } = {}) =>
  fetch(url, {
    ...init,
    headers: { "content-type": "application/json", ...(init.cookie ? { cookie: init.cookie } : {}) },
  });

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
      const login = await json(`${server.url}/api/v1/panel/auth/login`, {
        method: "POST",
        body: JSON.stringify({ email: "ops@example.com", password: "ops-password" }),
      });
      const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
      const post = async (path: string, body: unknown) =>
        (
          await json(`${server.url}/api/v1/panel${path}`, {
            method: "POST",
            body: JSON.stringify(body),
            cookie,
          })
        ).json();
      const company = await post("/companies", { name: "Acme", slug: "acme" });
      const template = await post("/templates", {
        name: "Editor",
        productCode: "EDITOR",
        defaultOfflineDays: 7,
        defaultValidityDays: 30,
      });
      const license = await post("/licenses", {
        companyId: company.id,
        templateId: template.id,
        expiresAt: new Date(clock.now().getTime() + DAY).toISOString(),
      });

      clock.advance(DAY + 1000);
      let status = "Active";
      for (let i = 0; i < 100 && status !== "Expired"; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const row = await json(`${server.url}/api/v1/panel/licenses/${license.id}`, { cookie });
        // An expired license reads as Expired at once; the sweeper is what writes it down.
        const stored = await database.db.query.licenses.findFirst({
          where: (l, { eq }) => eq(l.id, license.id),
        });
        status = stored!.status;
        expect((await row.json()).status).toBe("Expired");
      }
      expect(status).toBe("Expired");
    } finally {
      await server.close();
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
