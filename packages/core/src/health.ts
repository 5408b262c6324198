import { sql } from "drizzle-orm";
import type { Deps } from "./deps.ts";

export { isDatabaseUnavailable } from "@licensing/db";

/** True when the database answers within the pool's limits. */
export async function checkDatabase(deps: Pick<Deps, "db" | "logger">): Promise<boolean> {
  try {
    await deps.db.execute(sql`select 1`);
    return true;
  } catch (err) {
    deps.logger.warn({ err }, "database readiness check failed");
    return false;
  }
}
