import { and, eq } from "drizzle-orm";
import {
  ConfigTypesError,
  configFileName,
  configTypeName,
  generateConfigTypes,
} from "@licensing/config-types";
import type { TemplateVersionTypesResponse } from "@licensing/contracts";
import { tables } from "@licensing/db";
import type { Actor } from "../auth/actor.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { loadTemplate } from "./load.ts";

/**
 * A version's configSchema as TypeScript types (decision 0043): the text `licensing-codegen` writes for
 * it, named after the product (`EDITOR` → `EditorConfig`). Any authenticated user may read it, as the
 * versions themselves.
 */
export async function versionTypes(
  deps: Deps,
  _actor: Actor,
  templateId: string,
  version: number,
): Promise<TemplateVersionTypesResponse> {
  const template = await loadTemplate(deps.db, templateId);
  const [row] = await deps.db
    .select({ configSchema: tables.templateVersions.configSchema })
    .from(tables.templateVersions)
    .where(
      and(eq(tables.templateVersions.templateId, templateId), eq(tables.templateVersions.version, version)),
    )
    .limit(1);
  if (!row)
    return fail("template.version_not_found", `Template ${template.productCode} has no version ${version}`);
  try {
    // Stored only after compileConfigSchema accepted it, so it parses.
    const types = await generateConfigTypes(JSON.parse(row.configSchema), {
      typeName: configTypeName(template.productCode),
      source: `${template.productCode}, template version ${version}`,
    });
    return { templateId, version, fileName: configFileName(template.productCode), ...types };
  } catch (error) {
    if (!(error instanceof ConfigTypesError)) throw error;
    return fail("template.invalid_config_schema", `Version ${version}: ${error.message}`);
  }
}
