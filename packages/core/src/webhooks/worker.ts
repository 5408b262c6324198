import type { Deps } from "../deps.ts";
import { dispatchDueDeliveries, type DispatchOptions } from "./dispatch.ts";
import { WAKE_CHANNEL } from "./endpoints.ts";

export interface WebhookWorkerOptions {
  /** WEBHOOK_POLL_INTERVAL_SECONDS in ms: the fallback when no notification arrives. */
  pollIntervalMs: number;
  /** Subscribes to a notification channel (`Database.listen`); absent: the poll alone. */
  listen?: (channel: string, onNotify: () => void) => Promise<() => Promise<void>>;
  dispatch?: DispatchOptions;
}

export interface WebhookWorker {
  /** Runs the dispatcher now, or once more right after the run in progress. */
  wake(): void;
  /** Stops waking and waits for the run in progress. */
  stop(): Promise<void>;
}

/**
 * Sends due deliveries whenever a commit creates or replays some (NOTIFY on `webhook_deliveries`, from
 * any instance) and on every poll. Runs never overlap within a process; across processes the claims do
 * not overlap (SKIP LOCKED and leases).
 */
export async function startWebhookWorker(deps: Deps, options: WebhookWorkerOptions): Promise<WebhookWorker> {
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    do {
      again = false;
      try {
        const attempts = await dispatchDueDeliveries(deps, options.dispatch);
        if (attempts > 0) deps.logger.debug({ attempts }, "webhook deliveries attempted");
      } catch (err) {
        deps.logger.error({ err }, "webhook dispatch failed; retrying at the next wake or poll");
      }
    } while (again && !stopped);
  };
  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => {
      running = null;
    });
  };
  const unlisten = options.listen ? await options.listen(WAKE_CHANNEL, wake) : undefined;
  const timer = setInterval(wake, options.pollIntervalMs);
  timer.unref();
  wake();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten?.();
      await running;
    },
  };
}
