export {
  generateConfigTypes,
  ConfigTypesError,
  type ConfigTypes,
  type ConfigTypesOptions,
} from "./generate.ts";
export { listedFeatures } from "./features.ts";
export { configFileName, configTypeName, featureTypeName } from "./names.ts";
