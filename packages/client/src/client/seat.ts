import { verifyLeaseToken } from "../crypto/verify.ts";
import type { TrustedKeys } from "../crypto/key-chain.ts";
import { backoffDelay, jittered } from "../http/retry.ts";
import {
  LicensingApiError,
  type ApiFailure,
  type ApiResult,
  type Lease,
  type LeaseHolder,
  type ServerApi,
} from "../http/server-api.ts";
import type { Scheduler } from "./scheduler.ts";

/** Whether this machine holds a seat of a floating license, and how (decision 0052). */
export interface Seat {
  /** `held`: a lease renewed while the program runs; `borrowed`: kept for offline work until `borrowedUntil`. */
  state: "held" | "borrowed" | "none";
  leaseId: string | null;
  /** When the lease ends unless renewed (epoch ms). */
  expiresAt: number | null;
  borrowedUntil: number | null;
  /** With no seat because every one is taken: the machines holding them, soonest to free first. */
  holders: LeaseHolder[] | null;
  /** Then: when the first of them frees unless renewed (epoch ms); the client asks again by then. */
  retryAt: number | null;
}

export type SeatListener = (seat: Seat) => void;

/** A lease whose token verified: this license's, this machine's. */
export interface HeldLease {
  leaseId: string;
  token: string;
  /** The token's `exp` (epoch ms). */
  expiresAt: number;
  /** Set while the lease is borrowed (the borrow's `until`, which is the token's `exp`). */
  borrowedUntil: number | null;
}

export interface SeatOptions {
  api: ServerApi;
  clock: () => number;
  scheduler: Scheduler;
  /** The license's `ls` (ms): caps every wait, so a seat that frees early is found within a third of it. */
  leaseMs: number;
  activationId(): string | null;
  /** Verifies a lease the server answered (through the key chain); null when it does not verify. */
  verify(lease: Lease, activationId: string | null): Promise<HeldLease | null>;
  /** The seat changed: the client persists a borrow, refreshes its status and tells the listeners. */
  changed(): void;
  /** The server's signed revocation; true when it verified and the license is now Revoked. */
  revoked(revocation: string): Promise<boolean>;
  /** The server no longer knows this machine's activation: the client activates again, then `kick`s. */
  activationGone(): void;
  log(level: "debug" | "warn", message: string): void;
  afterTimer(): Promise<void>;
}

const time = (value: unknown) => (typeof value === "string" ? Date.parse(value) : NaN);

function readHolders(value: unknown): LeaseHolder[] | null {
  if (!Array.isArray(value)) return null;
  const holders = (value as Array<Record<string, unknown> | null>).map((item) => ({
    machineName: typeof item?.machineName === "string" ? item.machineName : null,
    acquiredAt: time(item?.acquiredAt),
    expiresAt: time(item?.expiresAt),
  }));
  return holders.some((h) => Number.isNaN(h.acquiredAt + h.expiresAt)) ? null : holders;
}

function readLease(value: unknown): Lease | null {
  const v = value as Record<string, unknown> | null;
  const expiresAt = time(v?.expiresAt);
  return typeof v?.leaseId === "string" &&
    typeof v.leaseToken === "string" &&
    typeof v.renewAfterSeconds === "number" &&
    !Number.isNaN(expiresAt)
    ? ({ ...v, expiresAt } as unknown as Lease)
    : null;
}

/**
 * A lease token is believed when it verifies through the key chain and names this license, machine and
 * (when known) activation; null otherwise.
 */
export async function checkLeaseToken(
  token: string,
  keys: TrustedKeys,
  owner: { licenseId: string; fingerprint: string | null; activationId: string | null },
  borrowed: boolean,
): Promise<HeldLease | null> {
  const payload = await verifyLeaseToken(token, keys);
  if (
    !payload ||
    payload.lid !== owner.licenseId ||
    payload.fp !== owner.fingerprint ||
    (owner.activationId !== null && payload.aid !== owner.activationId)
  )
    return null;
  const expiresAt = payload.exp * 1000;
  return {
    leaseId: payload.lsid,
    token: token.trim(),
    expiresAt,
    borrowedUntil: borrowed ? expiresAt : null,
  };
}

const RETRY_BASE_MS = 10_000;
const RETRY_MAX_MS = 300_000;
// A full pool is asked again this long after its `retryAt`, so the lease that ends then has surely ended.
const RETRY_AT_MARGIN_MS = 1000;
const GONE: string[] = ["lease.released", "lease.not_found"];

/**
 * The lease of a floating license (decision 0048 for the server, 0052 for this side): acquired once the
 * machine is activated, renewed at `renewAfterSeconds` with ±10 % jitter, released on `close`. A failed
 * renew is retried with backoff, never thrown; a full pool is asked again at its `retryAt`; a released
 * lease (410) is replaced by a new acquire at once.
 */
export class SeatKeeper {
  lease: HeldLease | null = null;
  /** The full pool's refusal, until a lease is had. */
  full: { holders: LeaseHolder[]; retryAt: number | null } | null = null;
  lastError: ApiFailure | null = null;
  /** Nothing more is asked: the license is not active, revoked or not floating, or the client closed. */
  stopped = false;
  nextAttemptAt: number | null = null;
  private timer: unknown = null;
  private failures = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private busy: Promise<unknown> | null = null;

  constructor(private readonly o: SeatOptions) {}

  /** The seat at `now`, as `onSeatChange` tells it. */
  seat(now: number): Seat {
    const lease = this.lease && now < this.lease.expiresAt ? this.lease : null;
    const borrowed = lease?.borrowedUntil != null && now < lease.borrowedUntil;
    return {
      state: !lease ? "none" : borrowed ? "borrowed" : "held",
      leaseId: lease?.leaseId ?? null,
      expiresAt: lease?.expiresAt ?? null,
      borrowedUntil: borrowed ? lease!.borrowedUntil : null,
      holders: lease ? null : (this.full?.holders ?? null),
      retryAt: lease ? null : (this.full?.retryAt ?? null),
    };
  }

  /** `statusDetails`' reason and message without a live lease: why, as far as the server said. */
  explain(reason: "no-lease" | "lease-expired", message: string) {
    const full = this.full;
    const error = this.lastError;
    if (full)
      return {
        reason: "no-seat" as const,
        message: `Every seat of the floating license is leased (${full.holders.length} machines)${full.retryAt === null ? "" : `; the first may free at ${new Date(full.retryAt).toISOString()}, and the client asks again by then`}`,
      };
    if (error?.code === "license.not_active")
      return {
        reason: "license-not-active" as const,
        message: `The license is not active: ${error.message}`,
      };
    return { reason, message: error ? `${message}: ${error.code}: ${error.message}` : message };
  }

  /** Acquires (or renews the lease this machine holds) unless something is already on its way. */
  kick(): Promise<unknown> {
    if (this.stopped || this.timer !== null || this.busy) return this.busy ?? this.queue;
    const busy = this.run(() => (this.lease ? this.renew() : this.acquire()));
    this.busy = busy.finally(() => (this.busy = null));
    return this.busy;
  }

  /**
   * A wait that should have ended by the clock (the machine slept: its timer did not run): acts at once.
   * The promise settles when that work is done, as a timer's callback's does (the scheduler's contract).
   */
  due(): Promise<void> | undefined {
    if (this.timer !== null && this.nextAttemptAt !== null && this.o.clock() >= this.nextAttemptAt) {
      this.o.log("debug", "The clock jumped past the lease's renewal (the machine slept): renewing now");
      this.unschedule();
      return this.kick().then(this.o.afterTimer);
    }
    return undefined;
  }

  /** Borrows the lease until `until` (epoch ms); rejects with the server's error. */
  borrow(until: number): Promise<Seat> {
    return this.run(async () => {
      const lease = this.live();
      if (!lease) throw new Error("This machine holds no seat to borrow");
      const result = await this.o.api.request(
        "leases/borrow",
        { leaseId: lease.leaseId, until: new Date(until).toISOString() },
        readLease,
      );
      if (!result.ok) {
        await this.handle(result, "Borrow");
        throw new LicensingApiError(result.error);
      }
      await this.accept(result.value, true);
      return this.seat(this.o.clock());
    });
  }

  /** Releases a borrowed lease (the seat frees at once), then takes an ordinary one while the program runs. */
  returnBorrowed(): Promise<Seat> {
    return this.run(async () => {
      const lease = this.live();
      if (lease?.borrowedUntil == null) throw new Error("This machine holds no borrowed seat");
      const result = await this.o.api.request("leases/release", { leaseId: lease.leaseId }, () => true);
      if (!result.ok) throw new LicensingApiError(result.error);
      this.lease = null;
      this.o.changed();
      await this.acquire();
      return this.seat(this.o.clock());
    });
  }

  /** Stops asking; releases an ordinary lease (a borrowed one is kept: that is what borrowing is for). */
  close(release: boolean): Promise<unknown> {
    this.stopped = true;
    this.unschedule();
    return this.run(async () => {
      const lease = this.live();
      if (!release || !lease || lease.borrowedUntil !== null) return;
      const result = await this.o.api.request("leases/release", { leaseId: lease.leaseId }, () => true);
      if (result.ok) this.lease = null;
    });
  }

  private live() {
    return this.lease && this.o.clock() < this.lease.expiresAt ? this.lease : null;
  }

  private run<T>(operation: () => Promise<T>): Promise<T> {
    const next = this.queue.then(operation);
    this.queue = next.catch(() => {});
    return next;
  }

  private async acquire(): Promise<void> {
    const activationId = this.o.activationId();
    // Not activated yet: the client kicks again when an activation succeeds.
    if (activationId === null || this.stopped) return;
    const result = await this.o.api.request("leases", { activationId }, readLease);
    if (result.ok) return this.accept(result.value, false);
    return this.handle(result, "Acquire");
  }

  private async renew(): Promise<void> {
    const lease = this.lease!;
    const result = await this.o.api.request("leases/renew", { leaseId: lease.leaseId }, readLease);
    if (result.ok) return this.accept(result.value, lease.borrowedUntil !== null);
    return this.handle(result, "Renew");
  }

  private async accept(answer: Lease, borrowed: boolean): Promise<void> {
    const lease = await this.o.verify(answer, this.o.activationId());
    if (!lease) {
      return this.handle(
        {
          ok: false,
          serverTime: null,
          error: {
            code: "lease.rejected",
            message:
              "The server's lease token does not verify with the configured key or is not this machine's",
            status: null,
            retryable: true,
            retryAfterMs: null,
          },
        },
        "Lease check",
      );
    }
    const previous = this.lease;
    if (borrowed) lease.borrowedUntil = lease.expiresAt;
    else if (previous?.leaseId === lease.leaseId && previous.borrowedUntil !== null)
      lease.borrowedUntil = previous.borrowedUntil;
    this.lease = lease;
    this.full = null;
    this.lastError = null;
    this.failures = 0;
    this.schedule(jittered(answer.renewAfterSeconds * 1000));
    this.o.changed();
  }

  /** Every refusal or failure: what the status says, and when to ask again. Never throws. */
  private async handle(result: ApiResult<unknown> & { ok: false }, what: string): Promise<void> {
    const { error } = result;
    this.lastError = error;
    const now = this.o.clock();
    const stop = (why: string) => {
      this.o.log("warn", `${what} refused: ${why}; the lease is no longer asked for`);
      this.stopped = true;
      this.lease = null;
      this.unschedule();
    };
    if (error.code === "lease.seats_exhausted") {
      this.lease = null;
      this.full = { holders: readHolders(error.holders) ?? [], retryAt: error.retryAt ?? null };
      const untilRetryAt = (error.retryAt ?? now) - (result.serverTime ?? now) + RETRY_AT_MARGIN_MS;
      this.o.log("warn", `${what} refused: every seat is in use`);
      this.schedule(Math.max(Math.min(untilRetryAt, this.o.leaseMs / 3), error.retryAfterMs ?? 0, 1000));
    } else if (GONE.includes(error.code)) {
      this.o.log("warn", `${what} refused (${error.code}): acquiring a new lease`);
      this.lease = null;
      this.o.changed();
      return this.acquire();
    } else if (error.code === "activation.not_found") {
      this.lease = null;
      this.o.activationGone();
    } else if (error.code === "license.revoked" && error.revocation !== undefined) {
      if (await this.o.revoked(error.revocation)) stop("the license was revoked");
      else this.retry(error);
    } else if (error.code === "license.not_active" || error.code === "lease.not_floating") {
      stop(error.message);
    } else {
      this.o.log("warn", `${what} failed: ${error.code}: ${error.message}`);
      this.retry(error);
    }
    this.o.changed();
  }

  /** Backoff, and while a lease is live never past its end, so a renew is tried before the seat is lost. */
  private retry(error: ApiFailure) {
    const delay = backoffDelay(
      ++this.failures,
      { baseMs: RETRY_BASE_MS, maxMs: RETRY_MAX_MS },
      error.retryAfterMs,
    );
    const left = this.lease ? this.lease.expiresAt - this.o.clock() : 0;
    this.schedule(left > 1000 ? Math.min(delay, left - 1000) : delay);
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.unschedule();
    const delay = Math.min(delayMs, Math.max(this.o.leaseMs / 3, 1000));
    this.nextAttemptAt = this.o.clock() + delay;
    this.timer = this.o.scheduler.setTimeout(
      () => {
        this.timer = null;
        this.nextAttemptAt = null;
        return this.kick().then(this.o.afterTimer);
      },
      delay,
      "network",
    );
  }

  private unschedule() {
    if (this.timer !== null) this.o.scheduler.clearTimeout(this.timer);
    this.timer = null;
    this.nextAttemptAt = null;
  }
}
