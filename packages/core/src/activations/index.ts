export { activate } from "./activate.ts";
export { heartbeat } from "./heartbeat.ts";
export { deactivate } from "./client-deactivate.ts";
export { clientPublicKey } from "./public-key.ts";
export { listActivations, listHeartbeats, resetActivation, resetDeviceBudget } from "./panel.ts";
export { deactivateActivations } from "./deactivate-activations.ts";
export { listMachines } from "./machines.ts";
export { activateOffline, deactivateOffline } from "./offline.ts";
