export {
  listEventTypes,
  listEndpoints,
  getEndpoint,
  createEndpoint,
  updateEndpoint,
  deleteEndpoint,
  listDeliveries,
  replayDelivery,
  WAKE_CHANNEL,
} from "./endpoints.ts";
export {
  claimDueDeliveries,
  sendDelivery,
  saveOutcome,
  dispatchDueDeliveries,
  type ClaimedDelivery,
  type DispatchOptions,
} from "./dispatch.ts";
export { envelopeBytes, envelopeText, type DeliveryPayload } from "./envelope.ts";
export { isForbiddenAddress } from "./address-guard.ts";
export { RETRY_DELAYS_MS, MAX_ATTEMPTS } from "./retry-policy.ts";
