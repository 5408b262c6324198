import { eq } from "drizzle-orm";
import { tables, type Executor, type TemplateRow } from "@licensing/db";
import { fail } from "../errors.ts";

/** The template, or `template.not_found`; `forUpdate` locks the row until the transaction ends. */
export async function loadTemplate(
  executor: Executor,
  templateId: string,
  options: { forUpdate?: boolean } = {},
): Promise<TemplateRow> {
  const query = executor.select().from(tables.templates).where(eq(tables.templates.id, templateId)).limit(1);
  const [template] = options.forUpdate ? await query.for("update") : await query;
  return template ?? fail("template.not_found", `No template with id ${templateId}`);
}

/** Archived templates take no new versions and no edits (`template.archived`). */
export function assertTemplateActive(template: TemplateRow) {
  if (template.status !== "Active") {
    fail("template.archived", `Template ${template.productCode} is archived and can no longer be changed`);
  }
}
