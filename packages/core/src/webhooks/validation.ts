import { EVENT_TYPES, type EventType } from "@licensing/contracts";
import type { WebhookSettings } from "../deps.ts";
import { fail } from "../errors.ts";
import { resolvePublicAddresses } from "./address-guard.ts";

export const MIN_SECRET_LENGTH = 16;

/** An absolute http(s) URL whose host does not lead inside (unless private addresses are allowed). */
export async function checkEndpointUrl(raw: string, settings: WebhookSettings): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return fail("webhook.invalid_url", "url: an absolute http or https URI, e.g. https://example.com/hooks");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return fail(
      "webhook.invalid_url",
      `url: the scheme must be http or https, not ${url.protocol.slice(0, -1)}`,
    );
  }
  if (url.username || url.password) {
    fail("webhook.invalid_url", "url: credentials in the URL are not accepted; the signature authenticates");
  }
  if (!settings.allowPrivate) {
    const check = await resolvePublicAddresses(url, settings);
    if (!check.ok) fail("webhook.url_not_allowed", `url: ${check.reason}`);
  }
  return url.toString();
}

export function checkSecret(secret: string): string {
  if ([...secret].length < MIN_SECRET_LENGTH) {
    fail("webhook.secret_too_short", `secret: at least ${MIN_SECRET_LENGTH} characters`);
  }
  return secret;
}

/** At least one event type, each from the catalogue; duplicates dropped, catalogue order kept. */
export function checkEvents(events: string[]): EventType[] {
  const unknown = events.filter((e) => !(EVENT_TYPES as readonly string[]).includes(e));
  if (unknown.length > 0) {
    fail(
      "webhook.invalid_events",
      `events: unknown event type ${unknown.map((e) => JSON.stringify(e)).join(", ")}; see GET /webhooks/event-types`,
    );
  }
  if (events.length === 0) fail("webhook.invalid_events", "events: subscribe to at least one event type");
  return EVENT_TYPES.filter((t) => events.includes(t));
}
