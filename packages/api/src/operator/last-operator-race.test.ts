import { and, eq } from "drizzle-orm";
import { tables } from "@licensing/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember } from "../testing/fixtures.ts";
import { startTestApp, type TestApp, type TestClient } from "../testing/index.ts";

// Two operators, each removing the other at the same moment over real HTTP: one of them must remain. On
// PostgreSQL the two transactions really overlap (TEST_DATABASE_URL); PGlite runs them one after the other.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

interface Operator {
  id: string;
  client: TestClient;
}

const demote = (by: Operator, target: Operator) =>
  by.client.api.operator.users.demote({ params: { id: target.id } });
const deactivate = (by: Operator, target: Operator) =>
  by.client.api.users.deactivate({ params: { id: target.id } });

const activeOperators = async () =>
  app.deps.db
    .select({ id: tables.users.id })
    .from(tables.users)
    .where(and(eq(tables.users.isOperator, true), eq(tables.users.status, "active")));

/** Leaves exactly one active operator (a fresh one), so each round starts from one plus the newcomer. */
async function soleOperator(): Promise<Operator> {
  const sole = await createMember(app, { isOperator: true });
  await app.deps.db
    .update(tables.users)
    .set({ isOperator: false })
    .where(and(eq(tables.users.isOperator, true), eq(tables.users.status, "active")));
  await app.deps.db.update(tables.users).set({ isOperator: true }).where(eq(tables.users.id, sole.id));
  return sole;
}

const ROUNDS = 8;

describe.each([
  ["demote each other", demote, demote],
  ["deactivate each other", deactivate, deactivate],
  ["one demotes while the other deactivates", demote, deactivate],
])("two operators who %s at once", (_name, first, second) => {
  it(`leave one operator, ${ROUNDS} races out of ${ROUNDS}`, async () => {
    let survivor = await soleOperator();
    for (let round = 0; round < ROUNDS; round++) {
      const newcomer = await createMember(app, { isOperator: true });
      const [a, b] = await Promise.all([first(survivor, newcomer), second(newcomer, survivor)]);
      const remaining = await activeOperators();
      expect(remaining, `round ${round}: ${a.status} ${a.text} / ${b.status} ${b.text}`).toHaveLength(1);
      // One wins; the other is refused as the last operator, or has already lost its session.
      const [won, lost] = a.status < 300 ? [a, b] : [b, a];
      expect(won.status).toBeLessThan(300);
      expect([401, 409]).toContain(lost.status);
      if (lost.status === 409) expect(lost.error.code).toBe("operator.last_operator");
      survivor = remaining[0]!.id === survivor.id ? survivor : newcomer;
    }
  });
});
