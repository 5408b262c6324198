import {
  CreateTemplateRequest,
  CreateTemplateVersionRequest,
  IdParams,
  LicenseTemplateResponse,
  SigningKeyResponse,
  TemplateKeyParams,
  TemplateListQuery,
  TemplateVersionParams,
  TemplateVersionResponse,
  TemplateVersionTypesResponse,
  UpdateTemplateRequest,
} from "@licensing/contracts";
import { templates } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Templates"];
const base = "/panel/templates";

export const templateOperations = {
  list: operation({
    method: "get",
    path: base,
    summary: "List templates (optionally by status)",
    description:
      "License templates (the products licenses are issued for), optionally only Active or Archived ones. Any authenticated caller; it changes nothing.",
    tags,
    auth: "authenticated",
    query: TemplateListQuery,
    response: z.array(LicenseTemplateResponse),
    handler: ({ deps, actor, input }) => templates.listTemplates(deps, actor, input),
  }),
  get: operation({
    method: "get",
    path: `${base}/{id}`,
    summary: "One template",
    description:
      "One template with its defaults and current version. Any authenticated caller; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: LicenseTemplateResponse,
    errors: ["template.not_found"],
    handler: ({ deps, actor, input }) => templates.getTemplate(deps, actor, input.id),
  }),
  create: operation({
    method: "post",
    path: base,
    summary: "Create a template and its first signing key",
    description:
      "Creates a template (unique product code, name, default validity and offline days) with its first Active Ed25519 signing key, whose private half is stored encrypted. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    body: CreateTemplateRequest,
    response: LicenseTemplateResponse,
    status: 201,
    errors: ["auth.operator_required", "template.product_code_taken"],
    handler: ({ deps, actor, input }) => templates.createTemplate(deps, actor, input),
  }),
  update: operation({
    method: "put",
    path: `${base}/{id}`,
    summary: "Update a template's name, description or defaults",
    description:
      "Changes a template's name, description, `defaultOfflineDays` or `defaultValidityDays` (offline days outside the allowed range are clamped). Licenses already issued keep their values; an archived template cannot change. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    body: UpdateTemplateRequest,
    response: LicenseTemplateResponse,
    errors: ["auth.operator_required", "template.not_found", "template.archived"],
    handler: ({ deps, actor, input: { id, ...patch } }) => templates.updateTemplate(deps, actor, id, patch),
  }),
  archive: operation({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Archive a template",
    description:
      "Archives a template: it issues no new licenses and cannot change any more; licenses already issued and its signing keys stay as they are. Archiving again changes nothing. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["auth.operator_required", "template.not_found"],
    handler: ({ deps, actor, input }) => templates.archiveTemplate(deps, actor, input.id),
  }),
  versions: {
    list: operation({
      method: "get",
      path: `${base}/{id}/versions`,
      summary: "Versions of a template, oldest first",
      description:
        "A template's versions (config schema, defaults, changelog), oldest first. Any authenticated caller; it changes nothing.",
      tags,
      auth: "authenticated",
      params: IdParams,
      response: z.array(TemplateVersionResponse),
      errors: ["template.not_found"],
      handler: ({ deps, actor, input }) => templates.listVersions(deps, actor, input.id),
    }),
    create: operation({
      method: "post",
      path: `${base}/{id}/versions`,
      summary: "Create a version; it becomes the current version at once",
      description:
        "Adds a version: a JSON Schema for license configs (`configSchema`), `defaults` that must match it, and a changelog. It becomes the current version at once and checks the configs of every license issued from then on. Operators only; recorded in the audit log.",
      tags,
      auth: "authenticated",
      params: IdParams,
      body: CreateTemplateVersionRequest,
      response: TemplateVersionResponse,
      status: 201,
      errors: [
        "auth.operator_required",
        "template.not_found",
        "template.archived",
        "template.invalid_config_schema",
        "template.invalid_defaults",
      ],
      handler: ({ deps, actor, input: { id, ...version } }) =>
        templates.createVersion(deps, actor, id, version),
    }),
    types: operation({
      method: "get",
      path: `${base}/{id}/versions/{version}/types`,
      summary: "The version's configSchema as TypeScript types, for LicenseClient<Config>",
      description:
        "Generates the TypeScript types of a license's config from the version's configSchema: an " +
        "interface named after the product code (`EDITOR` gives `EditorConfig`) and, when the schema lists " +
        "the items of `features`, the union of those names (`EditorFeature`). `source` is the file " +
        "`licensing-codegen` writes for the same version; pass the interface to `new LicenseClient<EditorConfig>(…)` " +
        "so `getConfig` is typed by the dotted path and `hasFeature` takes only listed names. Any " +
        "authenticated caller may call it (as the versions list); it changes nothing and publishes no event.",
      tags,
      auth: "authenticated",
      params: TemplateVersionParams,
      response: TemplateVersionTypesResponse,
      errors: ["template.not_found", "template.version_not_found", "template.invalid_config_schema"],
      handler: ({ deps, actor, input }) => templates.versionTypes(deps, actor, input.id, input.version),
    }),
  },
  signingKeys: {
    list: operation({
      method: "get",
      path: `${base}/{id}/signing-keys`,
      summary: "Signing keys of a template (public halves only)",
      description:
        "A template's signing keys, public halves only: the Active one, then the Inactive ones, then the Retired ones, newest first within each. Any authenticated caller; it changes nothing.",
      tags,
      auth: "authenticated",
      params: IdParams,
      response: z.array(SigningKeyResponse),
      errors: ["template.not_found"],
      handler: ({ deps, actor, input }) => templates.listSigningKeys(deps, actor, input.id),
    }),
    rotate: operation({
      method: "post",
      path: `${base}/{id}/signing-keys/rotate`,
      summary: "Rotate the signing key",
      description:
        "Makes a new Active signing key for new and re-signed tokens, with a certificate from the template's root key (its first key, the one programs are built with), so programs that know only the root verify what the new key signs: the license file and every marker carry the certificate. The previous key becomes Inactive: it signs no new token, still signs the markers of the licenses it signed, and still verifies. Allowed on archived templates too, since rotating answers a suspected key compromise. Operators only; recorded in the audit log.",
      tags,
      auth: "authenticated",
      params: IdParams,
      response: SigningKeyResponse,
      errors: ["auth.operator_required", "template.not_found"],
      handler: ({ deps, actor, input }) => templates.rotateSigningKey(deps, actor, input.id),
    }),
    retire: operation({
      method: "post",
      path: `${base}/{id}/signing-keys/{keyId}/retire`,
      summary: "Retire an Inactive signing key",
      description:
        "Retires an Inactive key. Retiring a key ends its certificate: tokens and markers it signed after retirement are refused; what it signed before stays valid until their own expiry. From then on the markers of its licenses are signed by the Active key, and they carry the retired key's ended certificate, so every program that goes online learns of the retirement. The root key, once retired, signs nothing either but keeps certifying the template's keys. The Active key cannot be retired; rotate first. Operators only; recorded in the audit log.",
      tags,
      auth: "authenticated",
      params: TemplateKeyParams,
      errors: [
        "auth.operator_required",
        "template.not_found",
        "signing_key.not_found",
        "signing_key.not_inactive",
      ],
      handler: ({ deps, actor, input }) => templates.retireSigningKey(deps, actor, input.id, input.keyId),
    }),
  },
};
