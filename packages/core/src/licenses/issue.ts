import { randomUUID } from "node:crypto";
import { insertRows, tables, type Tx } from "@licensing/db";
import {
  BULK_MAX_ITEMS,
  type BulkIssueRequest,
  type BulkIssueResponse,
  type IssueLicenseRequest,
  type LicenseTokenConfig,
  type LicenseIssueResponse,
  type ErrorCode,
  type MalformedBulkItem,
} from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import { generateLicenseKey, generateLicenseKeys } from "../crypto/license-key.ts";
import type { Deps } from "../deps.ts";
import { AppError, fail } from "../errors.ts";
import { runIdempotent } from "../idempotency/idempotency.ts";
import { publishEvents } from "../outbox/publish.ts";
import { findCompanies } from "../policy/index.ts";
import { certificateOf } from "../templates/key-chain.ts";
import { buildLicenseConfig } from "./config.ts";
import { loadIssueContext, resolveIssueTerms, type IssueContext, type IssueTerms } from "./issue-terms.ts";
import { authorizeFoundIssuingCompany, authorizeIssuingCompany } from "./load.ts";
import { signLicense } from "./sign.ts";

type NewLicense = typeof tables.licenses.$inferInsert & { id: string; expiresAt: Date };

/** Builds and signs one license (not yet stored) with a config built by `buildLicenseConfig`. */
function prepareLicense(
  deps: Deps,
  context: IssueContext,
  terms: IssueTerms,
  companyId: string,
  config: LicenseTokenConfig,
  licenseKey: string,
): NewLicense {
  const now = deps.clock.now();
  // 125 random bits: a collision is not a practical event, so the unique index is the only guard.
  const content = {
    id: randomUUID(),
    licenseKey,
    companyId,
    currentVersion: 1,
    config,
  };
  const token = signLicense(deps, context.key, {
    ...content,
    ...terms,
    productCode: context.template.productCode,
  });
  return {
    ...content,
    ...terms,
    config: JSON.stringify(config),
    templateId: context.template.id,
    templateVersionId: context.version?.id ?? null,
    signingKeyId: context.key.id,
    status: "Active",
    token,
    issuedAt: now,
    updatedAt: now,
  };
}

/** Stores licenses with their license.issued events and audit rows, in the caller's transaction. */
async function storeLicenses(tx: Tx, deps: Deps, actor: Actor, licenses: NewLicense[]) {
  if (licenses.length === 0) return;
  await insertRows(tx, tables.licenses, licenses);
  await publishEvents(
    tx,
    deps.clock,
    licenses.map((l) => ({
      type: "license.issued" as const,
      data: {
        licenseId: l.id,
        licenseKey: l.licenseKey,
        companyId: l.companyId,
        templateId: l.templateId,
        expiresAt: l.expiresAt.toISOString(),
      },
    })),
  );
  await recordAudit(
    tx,
    deps.clock,
    actor,
    ...licenses.map((l) => ({
      action: "license.issued",
      entityType: "license",
      entityId: l.id,
      meta: {
        licenseKey: l.licenseKey,
        companyId: l.companyId,
        templateId: l.templateId,
        isTrial: l.isTrial,
      },
    })),
  );
}

/** POST /licenses: one license, Admin on the company; idempotent with an Idempotency-Key. */
export async function issueLicense(
  deps: Deps,
  actor: Actor,
  input: IssueLicenseRequest,
  idempotencyKey?: string,
): Promise<LicenseIssueResponse> {
  const request = { key: idempotencyKey, operation: "licenses.issue", body: input };
  return runIdempotent(deps, actor, request, 201, async (tx) => {
    await authorizeIssuingCompany(tx, actor, input.companyId);
    const context = await loadIssueContext(tx, input.templateId);
    const terms = resolveIssueTerms(deps, context.template, input);
    const config = buildLicenseConfig(deps.configValidators, input.config, context.version);
    const license = prepareLicense(deps, context, terms, input.companyId, config, generateLicenseKey());
    await storeLicenses(tx, deps, actor, [license]);
    const certificate = await certificateOf(deps, tx, context.key);
    return {
      id: license.id,
      licenseKey: license.licenseKey,
      token: license.token,
      publicKey: context.key.publicKeyHex,
      ...(certificate === null ? {} : { certificate }),
    };
  });
}

type BulkResult = BulkIssueResponse["results"][number];

const failedRow = (companyId: string | null, error: { code: string; message: string }): BulkResult => ({
  companyId,
  licenseId: null,
  licenseKey: null,
  errorCode: error.code,
  errorMessage: error.message,
});

/**
 * The error of an item its schema refused (decision 0042): `license.invalid_config` when only its config
 * is wrong, as for a config that is not valid JSON; otherwise `request.invalid`, as POST /licenses
 * answers the same item. The message names each field, e.g. `companyId: Invalid UUID`.
 */
function malformedItemError(item: MalformedBulkItem): { code: ErrorCode; message: string } {
  const onlyConfig = item.problems.every((p) => p.path === "config" || p.path.startsWith("config."));
  return {
    code: onlyConfig ? "license.invalid_config" : "request.invalid",
    message: item.problems.map((p) => `${p.path || "item"}: ${p.message}`).join("; "),
  };
}

/**
 * POST /licenses/bulk: up to 200 licenses of one template. An item that fails (its shape, rights,
 * archived company, bad config) is reported in its row; the others are stored together in one
 * transaction.
 */
export async function bulkIssueLicenses(
  deps: Deps,
  actor: Actor,
  input: BulkIssueRequest,
  idempotencyKey?: string,
): Promise<BulkIssueResponse> {
  if (input.items.length === 0) fail("license.bulk_empty", "items is empty: nothing to issue");
  if (input.items.length > BULK_MAX_ITEMS) {
    fail("license.bulk_too_large", `At most ${BULK_MAX_ITEMS} items per request; got ${input.items.length}`);
  }
  const request = { key: idempotencyKey, operation: "licenses.bulk", body: input };
  return runIdempotent(deps, actor, request, 200, async (tx) => {
    const context = await loadIssueContext(tx, input.templateId);
    const terms = resolveIssueTerms(deps, context.template, input);
    const companies = await findCompanies(
      tx,
      input.items.flatMap((item) => ("malformed" in item ? [] : [item.companyId])),
    );
    const licenseKeys = generateLicenseKeys(input.items.length);
    // Most items share the batch's config: each distinct text is built and checked once.
    const configs = new Map<string | null | undefined, LicenseTokenConfig | AppError>();
    const configFor = (text: string | null | undefined) => {
      let built = configs.get(text);
      if (built === undefined) {
        try {
          built = buildLicenseConfig(deps.configValidators, text, context.version);
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          built = error;
        }
        configs.set(text, built);
      }
      if (built instanceof AppError) throw built;
      return built;
    };
    const issued: NewLicense[] = [];
    const results: BulkResult[] = [];
    for (const [index, item] of input.items.entries()) {
      if ("malformed" in item) {
        results.push(failedRow(item.companyId, malformedItemError(item)));
        continue;
      }
      try {
        authorizeFoundIssuingCompany(actor, item.companyId, companies.get(item.companyId.toLowerCase()));
        const config = configFor(item.config ?? input.config);
        const license = prepareLicense(deps, context, terms, item.companyId, config, licenseKeys[index]!);
        issued.push(license);
        results.push({
          companyId: item.companyId,
          licenseId: license.id,
          licenseKey: license.licenseKey,
          errorCode: null,
          errorMessage: null,
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        results.push(failedRow(item.companyId, error));
      }
    }
    await storeLicenses(tx, deps, actor, issued);
    return {
      requested: input.items.length,
      succeeded: issued.length,
      failed: input.items.length - issued.length,
      results,
    };
  });
}
