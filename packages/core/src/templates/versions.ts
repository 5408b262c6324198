import { asc, eq, max } from "drizzle-orm";
import { tables } from "@licensing/db";
import type { CreateTemplateVersionRequest, TemplateVersionResponse } from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { assertOperator } from "../policy/index.ts";
import { compileConfigSchema, parseJsonObject } from "./json-text.ts";
import { assertTemplateActive, loadTemplate } from "./load.ts";
import { toVersionResponse } from "./mappers.ts";
import { activeSigningKey } from "./signing-keys.ts";

/** The template's versions, oldest first; any authenticated user may read them. */
export async function listVersions(
  deps: Deps,
  _actor: Actor,
  templateId: string,
): Promise<TemplateVersionResponse[]> {
  await loadTemplate(deps.db, templateId);
  const rows = await deps.db
    .select()
    .from(tables.templateVersions)
    .where(eq(tables.templateVersions.templateId, templateId))
    .orderBy(asc(tables.templateVersions.version));
  return rows.map(toVersionResponse);
}

/**
 * Adds version n+1 and makes it the template's current version at once. `configSchema` must be a
 * usable JSON Schema (draft 2020-12) and `defaults` a JSON object; both are stored as sent.
 */
export async function createVersion(
  deps: Deps,
  actor: Actor,
  templateId: string,
  input: CreateTemplateVersionRequest,
): Promise<TemplateVersionResponse> {
  assertOperator(actor);
  compileConfigSchema(input.configSchema);
  const defaults = input.defaults ?? "{}";
  parseJsonObject(defaults, "defaults", "template.invalid_defaults");

  const version = await deps.db.transaction(async (tx) => {
    // The row lock serialises concurrent version creation, so numbers never collide.
    const template = await loadTemplate(tx, templateId, { forUpdate: true });
    assertTemplateActive(template);
    const [latest] = await tx
      .select({ n: max(tables.templateVersions.version) })
      .from(tables.templateVersions)
      .where(eq(tables.templateVersions.templateId, templateId));
    const key = await activeSigningKey(tx, templateId);
    const now = deps.clock.now();
    const [created] = await tx
      .insert(tables.templateVersions)
      .values({
        templateId,
        version: (latest?.n ?? 0) + 1,
        configSchema: input.configSchema,
        defaults,
        signingKeyId: key.id,
        changelog: input.changelog ?? null,
        createdAt: now,
      })
      .returning();
    await tx
      .update(tables.templates)
      .set({ currentVersionId: created!.id, updatedAt: now })
      .where(eq(tables.templates.id, templateId));
    await recordAudit(tx, deps.clock, actor, {
      action: "template.version_created",
      entityType: "template",
      entityId: templateId,
      meta: { versionId: created!.id, version: created!.version },
    });
    return created!;
  });
  return toVersionResponse(version);
}
