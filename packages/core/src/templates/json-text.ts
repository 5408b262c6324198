import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { MAX_CONFIG_JSON_LENGTH, MAX_JSON_DEPTH, type ErrorCode } from "@licensing/contracts";
import { fail } from "../errors.ts";
import { findUnstorable, jsonTextDepthExceeds } from "../validation/storable-text.ts";
import { locateJsonError } from "./json-error-position.ts";

// ajv-formats is CommonJS; under ESM its function sits on `default`.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Parses a JSON string field, or fails with `code` and a message that says where the text breaks
 * (line, column and offset), so the caller can find the mistake in a schema of hundreds of lines.
 */
export function parseJsonText(text: string, field: string, code: ErrorCode): unknown {
  if (text.length > MAX_CONFIG_JSON_LENGTH)
    fail(code, `${field} is ${text.length} characters long; at most ${MAX_CONFIG_JSON_LENGTH} allowed`);
  // Counted before parsing: a signer, a validator or PostgreSQL would recurse into a hostile nesting.
  if (jsonTextDepthExceeds(text, MAX_JSON_DEPTH))
    fail(code, `${field} is nested deeper than ${MAX_JSON_DEPTH} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const { offset, reason } = locateJsonError(text) ?? { offset: 0, reason: "not JSON" };
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    const column = offset - before.lastIndexOf("\n");
    return fail(
      code,
      `${field} is not valid JSON: ${reason} at line ${line}, column ${column} (offset ${offset})`,
    );
  }
  const unstorable = findUnstorable(value, field);
  if (unstorable) fail(code, `${unstorable.path}: ${unstorable.problem}`);
  return value;
}

/** Parses a JSON string that must hold an object (e.g. a version's defaults). */
export function parseJsonObject(text: string, field: string, code: ErrorCode): Record<string, unknown> {
  const value = parseJsonText(text, field, code);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(code, `${field} must be a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** A fresh validator per schema: a shared Ajv instance would keep every schema ever compiled. */
function newAjv() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv);
  return ajv;
}

/**
 * Checks that `text` is a JSON Schema (draft 2020-12) that can be used, and returns its validator. Invalid
 * JSON, a schema that breaks the meta-schema, or one that does not compile (e.g. an unresolvable $ref)
 * fails with `template.invalid_config_schema` and says why.
 */
export function compileConfigSchema(text: string): ValidateFunction {
  const code = "template.invalid_config_schema";
  const schema = parseJsonText(text, "configSchema", code);
  if (
    typeof schema !== "boolean" &&
    (typeof schema !== "object" || schema === null || Array.isArray(schema))
  ) {
    return fail(code, "configSchema must be a JSON Schema: an object (or a boolean)");
  }
  const ajv = newAjv();
  if (!ajv.validateSchema(schema as object)) {
    return fail(code, `configSchema is not a valid JSON Schema: ${describeSchemaErrors(ajv.errors)}`);
  }
  try {
    return ajv.compile(schema as object);
  } catch (error) {
    return fail(
      code,
      `configSchema cannot be used: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** `at /properties/limits/type: must be equal to one of the allowed values`, for the first errors. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined) {
  return (errors ?? [])
    .slice(0, 5)
    .map((e) => `at ${e.instancePath || "/"}: ${e.message ?? "is invalid"}`)
    .join("; ");
}
