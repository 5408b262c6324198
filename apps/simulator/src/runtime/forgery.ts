import { generateKeyPairSync } from "node:crypto";
import { signRevocation, signRevocationList } from "@licensing/core";
import type { Forgery } from "../scenario/steps.ts";

/** What a forgery names: the license, the template, the root key's id (public: every certificate holds it). */
export interface ForgeryTarget {
  licenseId: string;
  templateId: string;
  rootKeyId: string;
  /** The true time, epoch ms. */
  now: number;
}

/** A signer with a key no program trusts, posing as the template's root (its id is no secret). */
const attacker = (rootKeyId: string) => ({
  keyId: rootKeyId,
  privateKey: generateKeyPairSync("ed25519").privateKey,
  certificate: null,
});

/**
 * The body of a network attacker's 403 `license.revoked`: the service's error shape with a revocation of
 * the license in the right format signed by the attacker's key (`other-key`), or with none (`unsigned`).
 */
export function forgedRevocationAnswer(forgery: Forgery, target: ForgeryTarget): string {
  const refusal = { code: "license.revoked", message: "The license has been revoked", status: 403 };
  if (forgery === "unsigned") return JSON.stringify(refusal);
  const at = Math.floor(target.now / 1000);
  const revocation = signRevocation(attacker(target.rootKeyId), {
    lid: target.licenseId,
    status: "Revoked",
    revokedAt: at,
    iat: at,
  });
  return JSON.stringify({ ...refusal, revocation });
}

/** A revocation list naming the license, in the right format, signed by the attacker's key. */
export function forgedRevocationList(target: ForgeryTarget): string {
  const at = Math.floor(target.now / 1000);
  return signRevocationList(attacker(target.rootKeyId), {
    tid: target.templateId,
    tpl: "SIM-PRODUCT",
    since: 0,
    iat: at,
    revoked: [{ lid: target.licenseId, revokedAt: at }],
    next: null,
  });
}
