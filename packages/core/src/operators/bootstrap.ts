import { count } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { Deps } from "../deps.ts";

/**
 * On an empty database, creates the active operator named by the configuration, so a fresh install can
 * sign in. Returns the created email, or null when there were users already.
 */
export async function bootstrapOperator(deps: Deps, account: { email: string; password: string }) {
  const passwordHash = await deps.passwords.hash(account.password);
  return deps.db.transaction(async (tx) => {
    // Two instances starting on an empty database must not both create the account.
    await tx.execute("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE");
    const [existing] = await tx.select({ n: count() }).from(tables.users);
    if ((existing?.n ?? 0) > 0) return null;
    await tx.insert(tables.users).values({
      email: account.email.toLowerCase(),
      displayName: "Bootstrap operator",
      passwordHash,
      isOperator: true,
      status: "active",
      createdAt: deps.clock.now(),
    });
    return account.email.toLowerCase();
  });
}
