export { refuseNotLive, revocationOf, type RefusedLicense } from "./refusal.ts";
export { revocationList } from "./list.ts";
