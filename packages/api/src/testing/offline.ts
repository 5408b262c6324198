import { createHmac, randomBytes } from "node:crypto";
import { type FingerprintComponent } from "@licensing/protocol";
import {
  encodeOfflineReceiptBody,
  encodeOfflineRequestBody,
  formatMacBlock,
  OFFLINE_LABELS,
  offlineMacInput,
  type OfflineLabel,
} from "@licensing/protocol/offline";

/** Air-gapped activation blocks made as the SDK makes them (decision 0050), for the server's tests. */

export const newNonce = () => randomBytes(16).toString("base64url");

const mac = (key: string, label: OfflineLabel, body: string) =>
  createHmac("sha256", key).update(offlineMacInput(label, body)).digest();

export interface OfflineMachine {
  fingerprint?: string;
  components?: FingerprintComponent[];
  machineName?: string | null;
  nonce?: string;
  /** Unix seconds; default 0. */
  iat?: number;
  /** The HMAC's key; default the license's. */
  key?: string;
}

/** A `LICENSE ACTIVATION REQUEST` block of `license` (its id and key) for a machine. */
export function offlineRequest(license: { id: string; licenseKey: string }, machine: OfflineMachine = {}) {
  const body = encodeOfflineRequestBody({
    lid: license.id,
    fp: machine.fingerprint ?? "offline-machine",
    components: machine.components ?? [],
    machineName: machine.machineName === undefined ? "Air-gapped PC" : machine.machineName,
    nonce: machine.nonce ?? newNonce(),
    iat: machine.iat ?? 0,
  });
  return formatMacBlock(
    OFFLINE_LABELS.request,
    body,
    mac(machine.key ?? license.licenseKey, OFFLINE_LABELS.request, body),
  );
}

/** A `LICENSE DEACTIVATION` receipt for the certificate `nonce` of `activationId`. */
export function offlineReceipt(
  license: { id: string; licenseKey: string },
  activationId: string,
  nonce: string,
  options: { key?: string; iat?: number } = {},
) {
  const body = encodeOfflineReceiptBody({ lid: license.id, aid: activationId, nonce, iat: options.iat ?? 0 });
  return formatMacBlock(
    OFFLINE_LABELS.receipt,
    body,
    mac(options.key ?? license.licenseKey, OFFLINE_LABELS.receipt, body),
  );
}
