import type { ActivationResponse, LicenseResponse } from "@licensing/contracts";
import type { ReceiptPreview, RequestPreview } from "./offline-blocks.ts";

/**
 * What the server will do with a pasted block, said before it is sent, from what the page already holds
 * (the license and its activations). `refused`: the server will refuse it for a reason the page can see;
 * `ok`: what it will do; `note`: what else follows. The server still decides.
 */
export interface Outcome {
  tone: "ok" | "note" | "refused";
  text: string;
}

const DAY = 86_400_000;

/** The license's seat limit: a positive integer `limits.maxSeats` in its config, else none (spec §2). */
export function seatLimit(config: string): number | null {
  try {
    const max = (JSON.parse(config) as { limits?: { maxSeats?: unknown } }).limits?.maxSeats;
    return typeof max === "number" && Number.isInteger(max) && max > 0 ? max : null;
  } catch {
    return null;
  }
}

/** The end of the certificate: now + validDays, and never past the license's expiry (its default). */
export function certificateEnd(license: LicenseResponse, validDays: number | null, now: number): number {
  const expiry = Date.parse(license.expiresAt);
  return validDays === null ? expiry : Math.min(now + validDays * DAY, expiry);
}

const machine = (name: string | null) => name ?? "The machine (no name given)";

export function requestOutcome(
  license: LicenseResponse,
  activations: ActivationResponse[],
  request: RequestPreview,
  {
    validDays,
    now,
    formatDate,
  }: { validDays: number | null; now: number; formatDate: (ms: number) => string },
): Outcome[] {
  if (request.licenseId !== license.id) {
    return [
      {
        tone: "refused",
        text: `It was made for another license (${request.licenseId}): the server refuses it here. Paste it on that license's page.`,
      },
    ];
  }
  if (license.status !== "Active") {
    return [{ tone: "refused", text: `The license is ${license.status}: no machine can activate it.` }];
  }
  const out: Outcome[] = [];
  const live = activations.filter((a) => a.status === "active");
  const same = live.find((a) => a.hwFingerprint === request.fingerprint);
  if (same) {
    out.push({
      tone: "ok",
      text: `${machine(same.machineName)} is already activated on this license${same.mode === "offline" ? " without network" : ""}: it keeps its seat and gets a new certificate.`,
    });
  } else {
    const unlessHealed = "unless its components show it is an activated machine whose hardware changed";
    if (license.hwBinding === "fixed" && license.hwFingerprint === null) {
      out.push({
        tone: "refused",
        text: "The license's machine was released and awaits a rebind: rebind it to this machine's fingerprint first.",
      });
    } else if (
      license.hwBinding !== "none" &&
      license.hwFingerprint &&
      license.hwFingerprint !== request.fingerprint
    ) {
      out.push({
        tone: "refused",
        text: `The license is bound to another machine (${license.hwFingerprint}): the server refuses this one, ${unlessHealed}.`,
      });
    }
    const max = seatLimit(license.config);
    if (max === null) {
      out.push({
        tone: "ok",
        text: `It takes a seat: ${live.length} in use now, and the license sets no limit.`,
      });
    } else if (live.length < max) {
      out.push({ tone: "ok", text: `It takes seat ${live.length + 1} of ${max}.` });
    } else {
      out.push({
        tone: "refused",
        text: `All ${max} seats are in use: the server refuses it, ${unlessHealed}. Free a seat first (Reset below, or an offline deactivation).`,
      });
    }
    const budget = license.deviceBudget;
    if (budget.max !== null) {
      out.push(
        budget.used >= budget.max
          ? {
              tone: "refused",
              text: `The device budget is spent (${budget.used} of ${budget.max} new devices in ${budget.windowDays} days): a machine new to the license is refused.`,
            }
          : {
              tone: "note",
              text: `A machine new to the license counts against the device budget (${budget.used} of ${budget.max} used).`,
            },
      );
    }
  }
  const end = certificateEnd(license, validDays, now);
  const capped = validDays !== null && end === Date.parse(license.expiresAt);
  out.push({
    tone: "note",
    text: `The response activates it until ${formatDate(end)}${validDays === null || capped ? ", when the license expires" : ""}, with no grace period; it learns nothing of what changes here meanwhile (a suspension, a revocation).`,
  });
  return out;
}

export function receiptOutcome(
  license: LicenseResponse,
  activations: ActivationResponse[],
  receipt: ReceiptPreview,
  { formatDate }: { formatDate: (ms: number) => string },
): Outcome[] {
  if (receipt.licenseId !== license.id) {
    return [
      {
        tone: "refused",
        text: `This receipt is for another license (${receipt.licenseId}): hand it in on that license's page.`,
      },
    ];
  }
  const activation = activations.find((a) => a.id === receipt.activationId);
  if (!activation) {
    return [
      { tone: "refused", text: "It names an activation this license does not have: the server refuses it." },
    ];
  }
  const name = machine(activation.machineName);
  if (activation.mode !== "offline") {
    return [
      { tone: "refused", text: `${name} was activated online, not with a request: the server refuses it.` },
    ];
  }
  if (activation.status !== "active") {
    return [
      {
        tone: "note",
        text: `${name}'s seat is already free (since ${formatDate(Date.parse(activation.deactivatedAt ?? activation.activatedAt))}): handing it in again changes nothing.`,
      },
    ];
  }
  return [
    {
      tone: "ok",
      text: `It frees the seat of ${name}, activated without network on ${formatDate(Date.parse(activation.activatedAt))}.`,
    },
  ];
}
