export { acquireLease } from "./acquire.ts";
export { borrowLease, renewLease } from "./renew.ts";
export { releaseLease } from "./release.ts";
export { forceReleaseLease, listLeases } from "./panel.ts";
export { endLeases } from "./pool.ts";
