import type { TemplateVersionRow } from "@licensing/db";
import type { ValidateFunction } from "ajv";
import type { LicenseTokenConfig } from "@licensing/contracts";
import { fail } from "../errors.ts";
import { compileConfigSchema, describeSchemaErrors, parseJsonObject } from "../templates/json-text.ts";

/**
 * Turns a config JSON string into the `cfg` a token carries: the version's defaults, overridden key by
 * key (top level) by the license's own config; `features` defaults to [] and `limits` to {}.
 * Fails with `license.invalid_config` naming the position or the field.
 */
export function buildLicenseConfig(
  validators: ConfigValidators,
  text: string | null | undefined,
  version: TemplateVersionRow | null,
): LicenseTokenConfig {
  const own = parseJsonObject(text ?? "{}", "config", "license.invalid_config");
  const defaults = version ? (JSON.parse(version.defaults) as Record<string, unknown>) : {};
  const config = { features: [], limits: {}, ...defaults, ...own } as Record<string, unknown>;
  const { features, limits } = config;
  if (!Array.isArray(features) || features.some((f) => typeof f !== "string")) {
    fail("license.invalid_config", "config.features must be an array of strings");
  }
  if (typeof limits !== "object" || limits === null || Array.isArray(limits)) {
    fail("license.invalid_config", "config.limits must be an object");
  }
  if (version) {
    const validate = validators.forVersion(version);
    if (!validate(config)) {
      fail(
        "license.invalid_config",
        `config does not match the configSchema of template version ${version.version}: ${describeSchemaErrors(validate.errors)}`,
      );
    }
  }
  return config as LicenseTokenConfig;
}

/** Compiled configSchema validators per template version (a version never changes); held by `Deps`. */
export interface ConfigValidators {
  forVersion(version: TemplateVersionRow): ValidateFunction;
}

// Bounded so old versions fall out.
const MAX_VALIDATORS = 500;

export function createConfigValidators(): ConfigValidators {
  const validators = new Map<string, ValidateFunction>();
  return {
    forVersion(version) {
      let validate = validators.get(version.id);
      if (!validate) {
        validate = compileConfigSchema(version.configSchema);
        if (validators.size >= MAX_VALIDATORS) validators.delete(validators.keys().next().value!);
        validators.set(version.id, validate);
      }
      return validate;
    },
  };
}
