/** A delivery's envelope as stored (`webhook_deliveries.payload`, jsonb). */
export interface DeliveryPayload {
  event: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/**
 * The exact text sent as a delivery's body: the envelope's members in the spec's order, `data` as stored.
 * The sender signs and sends it and the API shows it (`WebhookDeliveryResponse.payload`), so both are the
 * same bytes and a receiver's developer can check a signature against what the panel shows.
 */
export function envelopeText(payload: DeliveryPayload): string {
  const { event, occurredAt, data } = payload;
  return JSON.stringify({ event, occurredAt, data });
}

/** The body's bytes: `envelopeText` in UTF-8. */
export const envelopeBytes = (payload: DeliveryPayload): Buffer => Buffer.from(envelopeText(payload), "utf8");
