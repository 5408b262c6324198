export { listTemplates, getTemplate, createTemplate, updateTemplate, archiveTemplate } from "./templates.ts";
export { listVersions, createVersion } from "./versions.ts";
export { versionTypes } from "./version-types.ts";
export { listSigningKeys, rotateSigningKey, retireSigningKey } from "./signing-keys.ts";
