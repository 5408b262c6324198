import { describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { checkBinding, type BindingState } from "./binding.ts";

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
