import { and, eq, isNull } from "drizzle-orm";
import { tables, type Executor, type SigningKeyRow } from "@licensing/db";
import { unixSeconds } from "../crypto/license-token.ts";
import { signCertificate, type DocumentSigner } from "../crypto/signed-documents.ts";
import type { Deps } from "../deps.ts";

/**
 * The key chain (decision 0049): a template's first signing key is its root, the key its programs are built
 * with; it certifies every later key, so a program that knows only the root verifies what they sign. A
 * certificate vouches for the key's id and public key from its creation; the one issued at retirement also
 * says when the key stopped signing (`exp`).
 */

type CertifiedKey = Pick<
  SigningKeyRow,
  "id" | "templateId" | "publicKeyHex" | "notBefore" | "createdAt" | "retiredAt"
>;

/** The template's root key; every template has one (its first key, or the migration's pick). */
export async function rootSigningKey(executor: Executor, templateId: string): Promise<SigningKeyRow> {
  const [root] = await executor
    .select()
    .from(tables.signingKeys)
    .where(and(eq(tables.signingKeys.templateId, templateId), eq(tables.signingKeys.isRoot, true)))
    .limit(1);
  if (!root) throw new Error(`Template ${templateId} has no root signing key`);
  return root;
}

/** Signs the root's certificate of `key`: from its creation, and until its retirement when it is retired. */
export function certify(deps: Pick<Deps, "signingKeys">, root: SigningKeyRow, key: CertifiedKey): string {
  return signCertificate(
    { keyId: root.id, privateKey: deps.signingKeys.privateKey(root.id, root.privateKeySealed) },
    {
      kid: key.id,
      pub: key.publicKeyHex,
      iat: unixSeconds(key.retiredAt ?? key.createdAt),
      nbf: unixSeconds(key.notBefore),
      // Rounded up: what the key signed in the second of its retirement, before it, stays valid.
      ...(key.retiredAt ? { exp: Math.ceil(key.retiredAt.getTime() / 1000) } : {}),
    },
  );
}

/** What the chain needs to know of a key to sign with it. */
export type ChainKey = Pick<SigningKeyRow, "id" | "templateId" | "isRoot" | "certificate">;

/**
 * The certificate of a key, null for the root. A key rotated in before certificates existed gets one now,
 * stored; it is the same text whenever it is made (Ed25519 is deterministic), so racing writers agree.
 */
export async function certificateOf(deps: Deps, executor: Executor, key: ChainKey): Promise<string | null> {
  if (key.isRoot) return null;
  if (key.certificate !== null) return key.certificate;
  const [row] = await executor.select().from(tables.signingKeys).where(eq(tables.signingKeys.id, key.id));
  if (!row) throw new Error(`Signing key ${key.id} is missing`);
  const certificate = certify(deps, await rootSigningKey(executor, key.templateId), row);
  await executor
    .update(tables.signingKeys)
    .set({ certificate })
    .where(and(eq(tables.signingKeys.id, key.id), isNull(tables.signingKeys.certificate)));
  return certificate;
}

/** A stored key as a document signer: its id, its decrypted private key (cached) and its certificate. */
export async function documentSigner(
  deps: Deps,
  executor: Executor,
  key: SigningKeyRow,
): Promise<DocumentSigner> {
  return {
    keyId: key.id,
    privateKey: deps.signingKeys.privateKey(key.id, key.privateKeySealed),
    certificate: await certificateOf(deps, executor, key),
  };
}
