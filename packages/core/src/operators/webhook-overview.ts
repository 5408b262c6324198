import type { OperatorWebhookOverview } from "@licensing/contracts";
import type { Deps } from "../deps.ts";

/**
 * The webhook part of the operator overview: active endpoints, and deliveries created since `since` by
 * status. There are no webhook tables yet (issue 12, webhooks part): until the webhooks work lands, this
 * is the one function it replaces with real counts, and every figure is zero because nothing exists.
 */
export async function webhookOverview(_deps: Deps, _since: Date): Promise<OperatorWebhookOverview> {
  return { webhookEndpoints: 0, deliveryHealthLast24h: { pending: 0, failed: 0, success: 0 } };
}
