import { asc, eq } from "drizzle-orm";
import { isUniqueViolation, tables } from "@licensing/db";
import {
  TEMPLATE_OFFLINE_DAYS,
  type CreateTemplateRequest,
  type LicenseTemplateResponse,
  type TemplateStatus,
  type UpdateTemplateRequest,
} from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertOperator } from "../policy/index.ts";
import { assertTemplateActive, loadTemplate } from "./load.ts";
import { toTemplateResponse } from "./mappers.ts";
import { createSigningKey } from "./signing-keys.ts";

/** Spec §8: out-of-range values are clamped, not refused. */
export const clampTemplateOfflineDays = (days: number) =>
  Math.min(TEMPLATE_OFFLINE_DAYS.max, Math.max(TEMPLATE_OFFLINE_DAYS.min, days));

/** Any authenticated user reads templates (spec §5). */
export async function listTemplates(
  deps: Deps,
  _actor: Actor,
  query: { status?: TemplateStatus | undefined } = {},
): Promise<LicenseTemplateResponse[]> {
  const rows = await deps.db
    .select()
    .from(tables.templates)
    .where(query.status ? eq(tables.templates.status, query.status) : undefined)
    .orderBy(asc(tables.templates.createdAt), asc(tables.templates.id));
  return rows.map(toTemplateResponse);
}

export async function getTemplate(deps: Deps, _actor: Actor, templateId: string) {
  return toTemplateResponse(await loadTemplate(deps.db, templateId));
}

/** Creates the template and its first (Active) signing key in one transaction. */
export async function createTemplate(
  deps: Deps,
  actor: Actor,
  input: CreateTemplateRequest,
): Promise<LicenseTemplateResponse> {
  assertOperator(actor);
  const now = deps.clock.now();
  try {
    const template = await deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(tables.templates)
        .values({
          name: input.name,
          productCode: input.productCode,
          description: input.description ?? null,
          defaultOfflineDays: clampTemplateOfflineDays(input.defaultOfflineDays),
          defaultValidityDays: input.defaultValidityDays,
          fingerprintMatch: input.fingerprintMatch,
          maxNewDevicesPerWindow: input.maxNewDevicesPerWindow,
          newDeviceWindowDays: input.newDeviceWindowDays,
          seatModel: input.seatModel,
          leaseSeconds: input.leaseSeconds,
          maxBorrowDays: input.maxBorrowDays,
          revocation: input.revocation,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const key = await createSigningKey(tx, deps, created!.id, null);
      await recordAudit(tx, deps.clock, actor, {
        action: "template.created",
        entityType: "template",
        entityId: created!.id,
        meta: { productCode: created!.productCode, name: created!.name, signingKeyId: key.id },
      });
      return created!;
    });
    return toTemplateResponse(template);
  } catch (error) {
    if (isUniqueViolation(error, "templates_product_code_key")) {
      fail("template.product_code_taken", `A template with product code ${input.productCode} already exists`);
    }
    throw error;
  }
}

export async function updateTemplate(
  deps: Deps,
  actor: Actor,
  templateId: string,
  input: UpdateTemplateRequest,
): Promise<LicenseTemplateResponse> {
  assertOperator(actor);
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.defaultOfflineDays !== undefined
      ? { defaultOfflineDays: clampTemplateOfflineDays(input.defaultOfflineDays) }
      : {}),
    ...(input.defaultValidityDays !== undefined ? { defaultValidityDays: input.defaultValidityDays } : {}),
    ...(input.fingerprintMatch !== undefined ? { fingerprintMatch: input.fingerprintMatch } : {}),
    ...(input.maxNewDevicesPerWindow !== undefined
      ? { maxNewDevicesPerWindow: input.maxNewDevicesPerWindow }
      : {}),
    ...(input.newDeviceWindowDays !== undefined ? { newDeviceWindowDays: input.newDeviceWindowDays } : {}),
    ...(input.seatModel !== undefined ? { seatModel: input.seatModel } : {}),
    ...(input.leaseSeconds !== undefined ? { leaseSeconds: input.leaseSeconds } : {}),
    ...(input.maxBorrowDays !== undefined ? { maxBorrowDays: input.maxBorrowDays } : {}),
    ...(input.revocation !== undefined ? { revocation: input.revocation } : {}),
  };
  const template = await deps.db.transaction(async (tx) => {
    const current = await loadTemplate(tx, templateId, { forUpdate: true });
    assertTemplateActive(current);
    if (Object.keys(changes).length === 0) return current;
    const [updated] = await tx
      .update(tables.templates)
      .set({ ...changes, updatedAt: deps.clock.now() })
      .where(eq(tables.templates.id, templateId))
      .returning();
    await recordAudit(tx, deps.clock, actor, {
      action: "template.updated",
      entityType: "template",
      entityId: templateId,
      meta: { changes },
    });
    return updated!;
  });
  return toTemplateResponse(template);
}

/** Archives the template (idempotent). Issued licenses and their keys are untouched. */
export async function archiveTemplate(deps: Deps, actor: Actor, templateId: string): Promise<void> {
  assertOperator(actor);
  await deps.db.transaction(async (tx) => {
    const current = await loadTemplate(tx, templateId, { forUpdate: true });
    if (current.status === "Archived") return;
    await tx
      .update(tables.templates)
      .set({ status: "Archived", updatedAt: deps.clock.now() })
      .where(eq(tables.templates.id, templateId));
    await recordAudit(tx, deps.clock, actor, {
      action: "template.archived",
      entityType: "template",
      entityId: templateId,
      meta: { productCode: current.productCode },
    });
  });
}
