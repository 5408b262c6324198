import { and, asc, eq } from "drizzle-orm";
import { tables, type Executor } from "@licensing/db";
import type { Machine, MachinesRequest, MachinesResponse, SeatModel } from "@licensing/contracts";
import { normalizeLicenseKey } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";

/**
 * The license's live activations as the client API shows them, oldest first: never a fingerprint or a
 * component, which would let one machine pass for another.
 */
export async function liveMachines(executor: Executor, licenseId: string): Promise<Machine[]> {
  const a = tables.activations;
  const rows = await executor
    .select({
      activationId: a.id,
      machineName: a.machineName,
      activatedAt: a.activatedAt,
      lastHeartbeatAt: a.lastHeartbeatAt,
    })
    .from(a)
    .where(and(eq(a.licenseId, licenseId), eq(a.status, "active")))
    .orderBy(asc(a.activatedAt), asc(a.id));
  return rows.map((r) => ({
    ...r,
    activatedAt: r.activatedAt.toISOString(),
    lastHeartbeatAt: r.lastHeartbeatAt?.toISOString() ?? null,
  }));
}

/** Whether a new machine finds no room: the license's machine limit (`licenses.machine_limit`) is reached. */
export const machinesFull = (license: { machineLimit: number | null; liveSeats: number }) =>
  license.machineLimit !== null && license.liveSeats >= license.machineLimit;

/**
 * Refuses a new machine for want of room, naming the machines that hold it (so one can be freed): a seat
 * of a node-locked license, or a registration of a floating one (whose seats are leases, decision 0048).
 */
export async function refuseMachine(
  executor: Executor,
  license: { id: string; seatModel: SeatModel; machineLimit: number | null },
): Promise<never> {
  const machines = await liveMachines(executor, license.id);
  if (license.seatModel === "floating") {
    return fail(
      "activation.machine_limit_reached",
      `All ${license.machineLimit} machines the license allows are registered; deactivate one first`,
      { details: { machines } },
    );
  }
  return fail(
    "activation.seat_limit_reached",
    `All ${license.machineLimit} seats of the license are in use`,
    {
      details: { machines },
    },
  );
}

/**
 * POST /client/machines (the HMAC is checked by the caller): the license's live activations, whatever
 * the license's status, so a program can offer to free one with `POST /client/deactivate`.
 */
export async function listMachines(deps: Deps, input: MachinesRequest): Promise<MachinesResponse> {
  const startedAt = performance.now();
  const licenseKey = normalizeLicenseKey(input.licenseKey);
  const [license] = licenseKey
    ? await deps.db
        .select({ id: tables.licenses.id })
        .from(tables.licenses)
        .where(eq(tables.licenses.licenseKey, licenseKey))
    : [];
  if (!license) {
    await deps.activations.machinesLatency.padFailure(startedAt);
    return fail("license.not_found", "No license with this key");
  }
  const machines = await liveMachines(deps.db, license.id);
  deps.activations.machinesLatency.recordSuccess(startedAt);
  return { machines };
}
