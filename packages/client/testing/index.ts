/**
 * `@licensing/client/testing`: what tests of the SDK and of the products that embed it start from (the
 * real server with a manual clock, a licensed company, licenses on disk; a machine without network; timers
 * a test fires). Not published: the folder is outside `files`, and the export has only the workspace's
 * `@licensing/source` condition.
 */
export {
  offlineFetch,
  startSdkTestServer,
  type LicenseOnDisk,
  type LicenseTerms,
  type SdkTestServer,
} from "./server.ts";
export { manualScheduler, watchTimer } from "./manual-scheduler.ts";
