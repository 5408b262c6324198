import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { rowsOf } from "../sql-rows.ts";
import { bindingAdmitsSql, checkBinding, type BindingState } from "./binding.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.dispose());

const outcome = (license: BindingState, fp: string | undefined) => {
  try {
    return checkBinding(license, fp).pin ? "pin" : "ok";
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
};

describe("checkBinding (spec §4 activation table)", () => {
  it.each([
    // hwBinding, pinned fingerprint, sent fingerprint, outcome
    ["none", null, undefined, "ok"],
    ["none", null, "machine-a", "ok"],
    ["fixed", "machine-a", "machine-a", "ok"],
    ["fixed", "machine-a", "machine-b", "activation.fingerprint_mismatch"],
    ["fixed", "machine-a", undefined, "activation.fingerprint_mismatch"],
    ["fixed", null, "machine-a", "activation.not_bound"],
    ["firstActivation", null, undefined, "activation.fingerprint_required"],
    ["firstActivation", null, "machine-a", "pin"],
    ["firstActivation", "machine-a", "machine-a", "ok"],
    ["firstActivation", "machine-a", "machine-b", "activation.fingerprint_mismatch"],
    ["firstActivation", "machine-a", undefined, "activation.fingerprint_required"],
  ] as const)("%s pinned to %s, sent %s → %s", (hwBinding, hwFingerprint, sent, expected) => {
    expect(outcome({ hwBinding, hwFingerprint }, sent)).toBe(expected);
  });
});

describe("bindingAdmitsSql (the activation statement's copy of the table)", () => {
  it("admits exactly what checkBinding admits", async () => {
    for (const hwBinding of ["none", "fixed", "firstActivation"] as const) {
      for (const hwFingerprint of [null, "machine-a"]) {
        for (const sent of [undefined, "machine-a", "machine-b"]) {
          const [row] = rowsOf<{ admits: boolean | null }>(
            await database.db.execute(sql`
              select ${bindingAdmitsSql("l", sql`${sent ?? null}::text`)} as admits
                from (values (${hwBinding}::text, ${hwFingerprint}::text)) as l(hw_binding, hw_fingerprint)`),
          );
          const admitted = ["ok", "pin"].includes(outcome({ hwBinding, hwFingerprint }, sent));
          expect(row!.admits === true, `${hwBinding} pinned to ${hwFingerprint}, sent ${sent}`).toBe(
            admitted,
          );
        }
      }
    }
  });
});
