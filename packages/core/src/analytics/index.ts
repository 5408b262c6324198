export { getUsage, usageWindow } from "./usage.ts";
export { getDistribution } from "./distribution.ts";
export { rollupUsage, rolledThrough } from "./rollup.ts";
export { maintainHeartbeatPartitions, MONTHS_AHEAD, type PartitionRun } from "./partitions.ts";
export { analyticsScope, type AnalyticsScope } from "./scope.ts";
export { getConcurrency } from "./concurrency.ts";
export { rollupLeases, leasesRolledThrough } from "./lease-rollup.ts";
