import { createHmac } from "node:crypto";

/**
 * The headers that let a receiver check a delivery, computed over the exact body bytes sent:
 * the spec's `X-Service-Signature: sha256=<hex>` (key: the secret), and the Standard Webhooks
 * `webhook-signature: v1,<base64>` over `id.timestamp.body` (key: the UTF-8 bytes of the secret, so a
 * receiver passes the secret's base64 to the `standardwebhooks` library).
 */
export function signatureHeaders(input: {
  secret: Buffer;
  deliveryId: string;
  eventType: string;
  body: Buffer;
  timestampSeconds: number;
}): Record<string, string> {
  const { secret, deliveryId, body, timestampSeconds } = input;
  const spec = createHmac("sha256", secret).update(body).digest("hex");
  const standard = createHmac("sha256", secret)
    .update(`${deliveryId}.${timestampSeconds}.`)
    .update(body)
    .digest("base64");
  return {
    "content-type": "application/json",
    "x-service-event": input.eventType,
    "x-service-delivery": deliveryId,
    "x-service-signature": `sha256=${spec}`,
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": `v1,${standard}`,
  };
}
