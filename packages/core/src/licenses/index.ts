export { issueLicense, bulkIssueLicenses } from "./issue.ts";
export { searchLicenses } from "./search.ts";
export { getLicense, revokeLicense, setLicenseSuspended } from "./lifecycle.ts";
export { transferLicense, rebindLicense } from "./resign.ts";
export { licenseFile, licensePublicKey } from "./files.ts";
export { effectiveStatus } from "./mappers.ts";
