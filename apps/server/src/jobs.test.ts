import { DAY, MAIL_OUTBOX_RETENTION_MS } from "@licensing/core";
import { tables } from "@licensing/db";
import { OPERATOR, startTestApp, type TestApp } from "@licensing/api/testing";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverJobs } from "./jobs.ts";

const HOUR = 3_600_000;
const jobs = serverJobs({
  sweepIntervalMs: 60_000,
  purgeIntervalMs: HOUR,
  webhookPollIntervalMs: 5_000,
  analyticsIntervalMs: 600_000,
});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe("the mail-outbox-purge job", () => {
  const job = jobs.find((j) => j.id === "mail-outbox-purge")!;

  it("runs with the other purges, hourly", () => {
    expect(job.intervalMs).toBe(HOUR);
    expect(jobs.find((j) => j.id === "idempotency-purge")!.intervalMs).toBe(HOUR);
  });

  it("deletes the outbox rows older than 30 days, and only those", async () => {
    expect(MAIL_OUTBOX_RETENTION_MS).toBe(30 * DAY);
    const operator = await app.client({ signIn: true });
    const invite = (email: string) => operator.api.operator.users.invite({ body: { email } });
    expect((await invite("old@example.com")).status).toBe(200);
    await app.deps.mailer.idle();
    app.clock.advance(10 * DAY);
    await operator.login(OPERATOR.email, OPERATOR.password);
    expect((await invite("newer@example.com")).status).toBe(200);
    await app.deps.mailer.idle();
    const recipients = async () =>
      (await app.deps.db.select().from(tables.mailOutbox).orderBy(asc(tables.mailOutbox.to))).map(
        (r) => r.to,
      );
    expect(await recipients()).toEqual(["newer@example.com", "old@example.com"]);

    app.clock.advance(20 * DAY - 1);
    expect(await job.handler(app.deps)).toBe(0);
    app.clock.advance(2);
    expect(await job.handler(app.deps)).toBe(1);
    expect(await recipients()).toEqual(["newer@example.com"]);
    app.clock.advance(10 * DAY);
    expect(await job.handler(app.deps)).toBe(1);
    expect(await recipients()).toEqual([]);
  });
});
