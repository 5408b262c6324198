export { sweepExpiredLicenses } from "./expiry.ts";
export { detectMissedHeartbeats, MISSED_INTERVALS } from "./silence.ts";
