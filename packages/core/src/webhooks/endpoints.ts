import { randomUUID } from "node:crypto";
import { asc, desc, eq, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import {
  EVENT_TYPES,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type WebhookDeliveryResponse,
  type WebhookEndpointResponse,
  type WebhookEventType,
} from "@licensing/contracts";
import { recordAudit } from "../audit/record.ts";
import type { Actor } from "../auth/actor.ts";
import { sealedAt } from "../crypto/sealed-columns.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import { assertOperator } from "../policy/index.ts";
import { toDeliveryResponse, toEndpointResponse } from "./mappers.ts";
import { checkEndpointUrl, checkEvents, checkSecret } from "./validation.ts";

const e = tables.webhookEndpoints;
const d = tables.webhookDeliveries;
export const WAKE_CHANNEL = "webhook_deliveries";

/** The catalogue of spec §6; any signed-in caller may read it. */
export const listEventTypes = (): WebhookEventType[] => [...EVENT_TYPES];

export async function listEndpoints(deps: Deps, actor: Actor): Promise<WebhookEndpointResponse[]> {
  assertOperator(actor);
  const rows = await deps.db.select().from(e).orderBy(asc(e.createdAt), asc(e.id));
  return rows.map(toEndpointResponse);
}

async function loadEndpoint(deps: Deps, id: string) {
  const [row] = await deps.db.select().from(e).where(eq(e.id, id));
  return row ?? fail("webhook.not_found", `No webhook endpoint with id ${id}`);
}

export async function getEndpoint(deps: Deps, actor: Actor, id: string): Promise<WebhookEndpointResponse> {
  assertOperator(actor);
  return toEndpointResponse(await loadEndpoint(deps, id));
}

export async function createEndpoint(
  deps: Deps,
  actor: Actor,
  input: CreateWebhookRequest,
): Promise<WebhookEndpointResponse> {
  assertOperator(actor);
  const secret = checkSecret(input.secret);
  const events = checkEvents(input.events);
  const url = await checkEndpointUrl(input.url, deps.config.webhooks);
  const now = deps.clock.now();
  // The id is chosen here: the sealed secret is bound to its row.
  const id = randomUUID();
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(e)
      .values({
        id,
        url,
        description: input.description?.trim() ?? "",
        secretSealed: deps.secrets.seal(secret, sealedAt(e.secretSealed, id)),
        events,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(tx, deps.clock, actor, {
      action: "webhook.created",
      entityType: "webhook_endpoint",
      entityId: row!.id,
      meta: { url, events },
    });
    return toEndpointResponse(row!);
  });
}

export async function updateEndpoint(
  deps: Deps,
  actor: Actor,
  id: string,
  input: UpdateWebhookRequest,
): Promise<WebhookEndpointResponse> {
  assertOperator(actor);
  const changes: Partial<typeof e.$inferInsert> = {};
  if (input.secret !== undefined)
    changes.secretSealed = deps.secrets.seal(checkSecret(input.secret), sealedAt(e.secretSealed, id));
  if (input.events !== undefined) changes.events = checkEvents(input.events);
  if (input.url !== undefined) changes.url = await checkEndpointUrl(input.url, deps.config.webhooks);
  if (input.description !== undefined) changes.description = input.description?.trim() ?? "";
  if (input.isActive !== undefined) changes.isActive = input.isActive;
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(e)
      .set({ ...changes, updatedAt: deps.clock.now() })
      .where(eq(e.id, id))
      .returning();
    if (!row) return fail("webhook.not_found", `No webhook endpoint with id ${id}`);
    const { secretSealed: _secret, ...visible } = changes;
    await recordAudit(tx, deps.clock, actor, {
      action: "webhook.updated",
      entityType: "webhook_endpoint",
      entityId: id,
      meta: { ...visible, ...(input.secret !== undefined ? { secretChanged: true } : {}) },
    });
    return toEndpointResponse(row);
  });
}

/** Deletes the endpoint and its deliveries; a delivery being sent right now is not saved. */
export async function deleteEndpoint(deps: Deps, actor: Actor, id: string): Promise<void> {
  assertOperator(actor);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx.delete(e).where(eq(e.id, id)).returning({ url: e.url });
    if (!row) return fail("webhook.not_found", `No webhook endpoint with id ${id}`);
    await recordAudit(tx, deps.clock, actor, {
      action: "webhook.deleted",
      entityType: "webhook_endpoint",
      entityId: id,
      meta: { url: row.url },
    });
  });
}

/** The endpoint's latest deliveries, newest first. */
export async function listDeliveries(
  deps: Deps,
  actor: Actor,
  id: string,
  query: { limit: number },
): Promise<WebhookDeliveryResponse[]> {
  assertOperator(actor);
  await loadEndpoint(deps, id);
  const rows = await deps.db
    .select()
    .from(d)
    .where(eq(d.endpointId, id))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(query.limit);
  return rows.map(toDeliveryResponse);
}

/**
 * Spec §3: back to Pending with attemptCount 0, due now, whatever its state; the workers are woken at
 * the commit. A delivery being sent right now keeps its lease (it is never sent twice at once), but that
 * attempt's result is dropped, so the replay still happens once the lease ends.
 */
export async function replayDelivery(deps: Deps, actor: Actor, deliveryId: string): Promise<void> {
  assertOperator(actor);
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(d)
      .set({ status: "Pending", attemptCount: 0, nextAttemptAt: deps.clock.now(), leaseToken: null })
      .where(eq(d.id, deliveryId))
      .returning({ id: d.id, endpointId: d.endpointId, eventType: d.eventType });
    if (!row) return fail("webhook_delivery.not_found", `No webhook delivery with id ${deliveryId}`);
    await recordAudit(tx, deps.clock, actor, {
      action: "webhook_delivery.replayed",
      entityType: "webhook_delivery",
      entityId: deliveryId,
      meta: { endpointId: row.endpointId, eventType: row.eventType },
    });
    await tx.execute(sql`select pg_notify(${WAKE_CHANNEL}, '')`);
  });
}
