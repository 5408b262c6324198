import { sql, type SQL } from "drizzle-orm";
import type { Executor, LicenseRow } from "@licensing/db";
import type { DeviceBudget } from "@licensing/contracts";
import { DAY } from "../clock.ts";
import { rowsOf } from "../sql-rows.ts";

/**
 * What counts as a new device, and the budget of them (decision 0047). A machine is known to a license
 * when one of its activations was live at some time in the last KNOWN_DEVICE_DAYS; activating an unknown
 * machine marks the activation `new_device`, and those activated within the license's window count.
 */
export const KNOWN_DEVICE_DAYS = 90;

/** From when an activation that was live makes its machine known. */
export const knownSince = (now: Date) => new Date(now.getTime() - KNOWN_DEVICE_DAYS * DAY);

/** Whether an activation was live at some time since `since`: still active, or deactivated after it. */
export const liveSince = (
  activation: { status: "active" | "deactivated"; deactivatedAt: Date | null },
  since: Date,
) =>
  activation.status === "active" || (activation.deactivatedAt !== null && activation.deactivatedAt >= since);

/** `liveSince` in SQL for the one-statement activation; `device-budget.test.ts` holds the two together. */
export const liveSinceSql = (alias: string, since: SQL): SQL => {
  const a = sql.raw(alias);
  return sql`(${a}.status = 'active' or ${a}.deactivated_at >= ${since})`;
};

export type BudgetTerms = Pick<
  LicenseRow,
  "id" | "maxNewDevicesPerWindow" | "newDeviceWindowDays" | "deviceBudgetResetAt"
>;

/** The new devices that count now, per license: how many, and when the oldest was activated. */
export async function countedNewDevices(
  executor: Executor,
  licenseIds: string[],
  now: Date,
): Promise<Map<string, { used: number; oldest: Date }>> {
  if (licenseIds.length === 0) return new Map();
  // A device counts while it is inside the window (activated after now - windowDays) and after the last
  // reset; at activatedAt + windowDays it leaves.
  const rows = rowsOf<{ license_id: string; used: number; oldest: string | Date }>(
    await executor.execute(sql`
      select a.license_id, count(*)::integer as used, min(a.activated_at) as oldest
        from activations a
        join licenses l on l.id = a.license_id
       where a.license_id in (${sql.join(
         licenseIds.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})
         and a.new_device
         and a.activated_at > ${now.toISOString()}::timestamptz - make_interval(hours => l.new_device_window_days * 24)
         and (l.device_budget_reset_at is null or a.activated_at > l.device_budget_reset_at)
       group by a.license_id`),
  );
  return new Map(rows.map((r) => [r.license_id, { used: r.used, oldest: new Date(r.oldest) }]));
}

/** The license's budget as the panel shows it, from what `countedNewDevices` found for it. */
export function deviceBudget(
  license: BudgetTerms,
  counted: { used: number; oldest: Date } | undefined,
): DeviceBudget {
  return {
    used: counted?.used ?? 0,
    max: license.maxNewDevicesPerWindow,
    windowDays: license.newDeviceWindowDays,
    resetsAt: counted ? leavesWindowAt(license, counted.oldest).toISOString() : null,
  };
}

/** When a new device activated at `activatedAt` stops counting. */
export const leavesWindowAt = (license: Pick<BudgetTerms, "newDeviceWindowDays">, activatedAt: Date) =>
  new Date(activatedAt.getTime() + license.newDeviceWindowDays * DAY);

/** The device budgets of licenses, in one query. */
export async function deviceBudgets(
  executor: Executor,
  licenses: BudgetTerms[],
  now: Date,
): Promise<Map<string, DeviceBudget>> {
  const counted = await countedNewDevices(
    executor,
    licenses.map((l) => l.id),
    now,
  );
  return new Map(licenses.map((l) => [l.id, deviceBudget(l, counted.get(l.id))]));
}
