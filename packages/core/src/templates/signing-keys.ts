import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { tables, type Executor, type SigningKeyRow, type Tx } from "@licensing/db";
import type { SigningKeyResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import { generateEd25519KeyPair } from "../crypto/ed25519.ts";
import { sealedAt } from "../crypto/sealed-columns.ts";
import type { TokenSigner } from "../crypto/license-token.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertOperator } from "../policy/index.ts";
import { certify, rootSigningKey } from "./key-chain.ts";
import { toSigningKeyResponse } from "./mappers.ts";
import { loadTemplate } from "./load.ts";

/**
 * Generates an Ed25519 key and stores it as the template's Active key, the private half sealed (D9). The
 * template's first key is its root (decision 0049); a later one is stored with the root's certificate.
 */
export async function createSigningKey(
  tx: Tx,
  deps: Deps,
  templateId: string,
  root: SigningKeyRow | null,
): Promise<SigningKeyRow> {
  const { publicKeyHex, privateKeyDer } = generateEd25519KeyPair();
  const now = deps.clock.now();
  // The id is chosen here: the sealed private key is bound to its row.
  const id = randomUUID();
  const facts = { id, templateId, publicKeyHex, notBefore: now, createdAt: now, retiredAt: null };
  const [key] = await tx
    .insert(tables.signingKeys)
    .values({
      ...facts,
      status: "Active",
      privateKeySealed: deps.secrets.seal(privateKeyDer, sealedAt(tables.signingKeys.privateKeySealed, id)),
      isRoot: root === null,
      certificate: root === null ? null : certify(deps, root, facts),
    })
    .returning();
  privateKeyDer.fill(0);
  return key!;
}

/** A signer (key id and decrypted private key) for a stored key; decrypted once per `Deps`. */
export const signerFor = (deps: Pick<Deps, "signingKeys">, key: SigningKeyRow): TokenSigner => ({
  keyId: key.id,
  privateKey: deps.signingKeys.privateKey(key.id, key.privateKeySealed),
});

/** The template's Active key, the one that signs new and re-signed tokens. */
export async function activeSigningKey(executor: Executor, templateId: string): Promise<SigningKeyRow> {
  const [key] = await executor
    .select()
    .from(tables.signingKeys)
    .where(and(eq(tables.signingKeys.templateId, templateId), eq(tables.signingKeys.status, "Active")))
    .limit(1);
  return key ?? fail("signing_key.not_found", `Template ${templateId} has no active signing key`);
}

/** A key by id; `signing_key.not_found` when it does not exist or belongs to another template. */
export async function loadSigningKey(executor: Executor, templateId: string, keyId: string) {
  const [key] = await executor
    .select()
    .from(tables.signingKeys)
    .where(and(eq(tables.signingKeys.id, keyId), eq(tables.signingKeys.templateId, templateId)))
    .limit(1);
  return key ?? fail("signing_key.not_found", `Template ${templateId} has no signing key ${keyId}`);
}

/** Every key of the template: the Active one, then Inactive, then Retired, newest first within each. */
export async function listSigningKeys(
  deps: Deps,
  _actor: Actor,
  templateId: string,
): Promise<SigningKeyResponse[]> {
  await loadTemplate(deps.db, templateId);
  const keys = await deps.db
    .select()
    .from(tables.signingKeys)
    .where(eq(tables.signingKeys.templateId, templateId))
    .orderBy(
      sql`case ${tables.signingKeys.status} when 'Active' then 0 when 'Inactive' then 1 else 2 end`,
      desc(tables.signingKeys.createdAt),
      desc(tables.signingKeys.id),
    );
  return keys.map(toSigningKeyResponse);
}

/**
 * Makes a new Active key, certified by the template's root, and turns the previous one Inactive: it signs no
 * new token but still signs the markers of the licenses it signed, verifies what it signed and stays
 * published. Allowed on archived templates too, since rotating is how a suspected key compromise is
 * answered. Returns the new key.
 */
export async function rotateSigningKey(
  deps: Deps,
  actor: Actor,
  templateId: string,
): Promise<SigningKeyResponse> {
  assertOperator(actor);
  const key = await deps.db.transaction(async (tx) => {
    await loadTemplate(tx, templateId, { forUpdate: true });
    const now = deps.clock.now();
    const previous = await tx
      .update(tables.signingKeys)
      .set({ status: "Inactive", notAfter: now })
      .where(and(eq(tables.signingKeys.templateId, templateId), eq(tables.signingKeys.status, "Active")))
      .returning({ id: tables.signingKeys.id });
    const created = await createSigningKey(tx, deps, templateId, await rootSigningKey(tx, templateId));
    await recordAudit(tx, deps.clock, actor, {
      action: "signing_key.rotated",
      entityType: "template",
      entityId: templateId,
      meta: { newKeyId: created.id, previousKeyId: previous[0]?.id ?? null },
    });
    return created;
  });
  return toSigningKeyResponse(key);
}

/**
 * Retires an Inactive key: it signs nothing from now on (the markers of its licenses come from the Active
 * key), and its certificate is issued again with this moment as its end (`exp`), which the markers' answers
 * carry to the programs: they refuse what it signs afterwards, and keep what it signed before until that
 * expires (decision 0049). The root keeps certifying once retired. The Active key cannot be retired.
 */
export async function retireSigningKey(
  deps: Deps,
  actor: Actor,
  templateId: string,
  keyId: string,
): Promise<void> {
  assertOperator(actor);
  await deps.db.transaction(async (tx) => {
    await loadTemplate(tx, templateId, { forUpdate: true });
    const key = await loadSigningKey(tx, templateId, keyId);
    if (key.status !== "Inactive") {
      fail(
        "signing_key.not_inactive",
        key.status === "Active"
          ? "The active key cannot be retired; rotate first"
          : "The key is already retired",
      );
    }
    const retiredAt = deps.clock.now();
    const certificate = key.isRoot
      ? null
      : certify(deps, await rootSigningKey(tx, templateId), { ...key, retiredAt });
    await tx
      .update(tables.signingKeys)
      .set({ status: "Retired", retiredAt, certificate })
      .where(eq(tables.signingKeys.id, keyId));
    await recordAudit(tx, deps.clock, actor, {
      action: "signing_key.retired",
      entityType: "template",
      entityId: templateId,
      meta: { keyId },
    });
  });
}
