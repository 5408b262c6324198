import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { tables } from "@licensing/db";
import { sealedAt } from "../crypto/sealed-columns.ts";
import type { Deps } from "../deps.ts";
import { rowsOf } from "../sql-rows.ts";
import { resolvePublicAddresses } from "./address-guard.ts";
import { envelopeBytes, type DeliveryPayload } from "./envelope.ts";
import { isSuccess, nextAttemptAfterFailure } from "./retry-policy.ts";
import { postOnce, type SendResult } from "./send.ts";
import { signatureHeaders } from "./signatures.ts";

const d = tables.webhookDeliveries;
const e = tables.webhookEndpoints;

// Beyond the send timeout, so a live worker always saves before its lease can pass to another.
const LEASE_MARGIN_MS = 60_000;

export interface ClaimedDelivery {
  id: string;
  leaseToken: string;
  endpointId: string;
  eventType: string;
  payload: DeliveryPayload;
  attemptCount: number;
  url: string;
  secretSealed: string;
}

/**
 * Takes up to `limit` due deliveries of active endpoints for this worker: rows locked with SKIP LOCKED,
 * so concurrent workers take disjoint sets, and leased until the send surely ended, so no other worker
 * sends them meanwhile. A worker that dies leaves the lease to expire; the row is then claimed again.
 */
export async function claimDueDeliveries(deps: Deps, limit: number): Promise<ClaimedDelivery[]> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + deps.config.webhooks.timeoutMs + LEASE_MARGIN_MS);
  const leaseToken = randomUUID();
  const claimed = rowsOf<ClaimedRow>(
    await deps.db.execute(sql`
    with claimed as (
      update ${d} set lease_token = ${leaseToken}, lease_until = ${leaseUntil}
       where ${d.id} in (
         select due.id from ${d} due
          where due.status = 'Pending' and due.next_attempt_at <= ${now}
            and (due.lease_until is null or due.lease_until <= ${now})
            and exists (select 1 from ${e} where ${e.id} = due.endpoint_id and ${e.isActive})
          order by due.next_attempt_at
          limit ${limit}
          for update of due skip locked)
      returning id, endpoint_id, event_type, payload, attempt_count)
    select c.id, c.endpoint_id, c.event_type, c.payload, c.attempt_count, ep.url, ep.secret_sealed
      from claimed c join ${e} ep on ep.id = c.endpoint_id`),
  );
  return claimed.map((r) => ({
    id: r.id,
    leaseToken,
    endpointId: r.endpoint_id,
    eventType: r.event_type,
    payload: r.payload,
    attemptCount: Number(r.attempt_count),
    url: r.url,
    secretSealed: r.secret_sealed,
  }));
}

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event_type: string;
  payload: ClaimedDelivery["payload"];
  attempt_count: number;
  url: string;
  secret_sealed: string;
}

/** One attempt: checks where the URL leads now (DNS can change), signs and sends. Never throws. */
export async function sendDelivery(deps: Deps, delivery: ClaimedDelivery): Promise<SendResult> {
  try {
    return await attempt(deps, delivery);
  } catch (error) {
    deps.logger.error({ err: error, deliveryId: delivery.id }, "webhook delivery could not be prepared");
    return { kind: "error", error: "internal error while preparing the request" };
  }
}

async function attempt(deps: Deps, delivery: ClaimedDelivery): Promise<SendResult> {
  const settings = deps.config.webhooks;
  const url = new URL(delivery.url);
  const check = await resolvePublicAddresses(url, settings);
  if (!check.ok) return { kind: "error", error: `refused: ${check.reason}` };
  const body = envelopeBytes(delivery.payload);
  const headers = signatureHeaders({
    secret: deps.secrets.open(
      delivery.secretSealed,
      sealedAt(tables.webhookEndpoints.secretSealed, delivery.endpointId),
    ),
    deliveryId: delivery.id,
    eventType: delivery.eventType,
    body,
    timestampSeconds: Math.floor(deps.clock.now().getTime() / 1000),
  });
  return postOnce({ url, addresses: check.addresses, headers, body, timeoutMs: settings.timeoutMs });
}

/**
 * Records an attempt's outcome (spec §3 "Webhook delivery"), if the lease is still this worker's (then
 * answers true): a delivery replayed or re-claimed meanwhile is left to its new owner.
 */
export async function saveOutcome(
  deps: Deps,
  delivery: ClaimedDelivery,
  result: SendResult,
): Promise<boolean> {
  const now = deps.clock.now();
  const attempt = delivery.attemptCount + 1;
  const succeeded = result.kind === "response" && isSuccess(result.statusCode);
  const next = succeeded ? null : nextAttemptAfterFailure(attempt, now);
  const response =
    result.kind === "response"
      ? {
          responseStatusCode: result.statusCode,
          responseBody: result.body,
          lastError: succeeded ? null : failedStatusMessage(result.statusCode),
        }
      : { responseStatusCode: null, responseBody: null, lastError: result.error };
  const saved = await deps.db
    .update(d)
    .set({
      ...response,
      status: succeeded ? "Succeeded" : next ? "Pending" : "Failed",
      attemptCount: attempt,
      lastAttemptAt: now,
      nextAttemptAt: next,
      leaseToken: null,
      leaseUntil: null,
    })
    .where(and(eq(d.id, delivery.id), eq(d.leaseToken, delivery.leaseToken)))
    .returning({ id: d.id });
  if (saved.length === 0) return false;
  deps.metrics.webhookDelivery(succeeded ? "succeeded" : next ? "retrying" : "failed");
  return true;
}

/**
 * Moves the endpoints' `lastDeliveryAt` to `at`, once per batch rather than once per delivery: every
 * delivery of a batch writing its endpoint's one row would queue them all behind that row's lock.
 */
async function markAttempted(deps: Deps, endpointIds: Set<string>, at: Date) {
  if (endpointIds.size === 0) return;
  await deps.db
    .update(e)
    .set({ lastDeliveryAt: at })
    .where(and(inArray(e.id, [...endpointIds]), or(isNull(e.lastDeliveryAt), lt(e.lastDeliveryAt, at))));
}

const failedStatusMessage = (status: number) =>
  status >= 300 && status < 400
    ? `HTTP ${status}: a redirect, which is not followed; point the endpoint at the final address`
    : `HTTP ${status}: not a 2xx answer`;

export interface DispatchOptions {
  /** Deliveries claimed at a time (default 50). */
  batchSize?: number;
  /** Sends in flight at once (default 10). */
  concurrency?: number;
}

/** Sends every due delivery, batch after batch, until none is left; returns how many attempts it made. */
export async function dispatchDueDeliveries(deps: Deps, options: DispatchOptions = {}): Promise<number> {
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 10;
  let attempts = 0;
  for (;;) {
    const batch = await claimDueDeliveries(deps, batchSize);
    if (batch.length === 0) return attempts;
    let next = 0;
    const attempted = new Set<string>();
    const lane = async () => {
      while (next < batch.length) {
        const delivery = batch[next++]!;
        const result = await sendDelivery(deps, delivery);
        if (await saveOutcome(deps, delivery, result)) attempted.add(delivery.endpointId);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, batch.length) }, lane));
    await markAttempted(deps, attempted, deps.clock.now());
    attempts += batch.length;
  }
}
