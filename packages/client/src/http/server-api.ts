import type { ErrorCode, HeartbeatResponse } from "@licensing/contracts";
import type { FingerprintComponent } from "@licensing/protocol";
import type { ClientErrorCode } from "./error-codes.ts";
import { parseRetryAfter } from "./retry.ts";
import { requestSigner } from "./signing.ts";

/** Why a call to the client API did not succeed. */
export interface ApiFailure {
  /**
   * The server's error code (`license.not_active`, `activation.not_found`, `hmac.stale`, …), or one of the
   * library's: `network.error` (no answer), `network.timeout`, `response.invalid` (an answer that is not
   * the API's), `marker.rejected`; `http.<status>` for an error answer without the API's body.
   */
  code: ClientErrorCode;
  message: string;
  /** The HTTP status; null when no answer came. */
  status: number | null;
  /** Network errors, timeouts, 408, 5xx and 429 are worth retrying; any other 4xx is not. */
  retryable: boolean;
  /** The server's Retry-After (ms), when it sent one. */
  retryAfterMs: number | null;
  /** `activation.seat_limit_reached`: the machines holding the seats, so one can be freed. */
  machines?: Machine[];
  /** `activation.device_budget_exhausted`: when a new device may activate again (epoch ms, server time). */
  retryAt?: number;
  /** `license.revoked`: the signed revocation, which the client verifies before it believes it. */
  revocation?: string;
  /** `lease.seats_exhausted`: the machines holding the floating license's seats, soonest to free first. */
  holders?: LeaseHolder[];
}

/** A machine holding a seat of a floating license, as a `lease.seats_exhausted` refusal lists it. */
export interface LeaseHolder {
  /** The name the machine activated with; null when it sent none. */
  machineName: string | null;
  /** Since when it holds the seat (epoch ms). */
  acquiredAt: number;
  /** When its lease ends unless renewed (epoch ms). */
  expiresAt: number;
}

/** A lease of a floating license, as the server answers an acquire, a renew or a borrow (decision 0048). */
export interface Lease {
  leaseId: string;
  /** Epoch ms. */
  expiresAt: number;
  renewAfterSeconds: number;
  leaseToken: string;
  certificate?: string | undefined;
  licenseCertificate?: string | undefined;
}

/** A call that did not succeed, thrown by the methods that return the server's data (`listMachines`). */
export class LicensingApiError extends Error implements ApiFailure {
  readonly code: ClientErrorCode;
  readonly status: number | null;
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;

  constructor(failure: ApiFailure) {
    super(failure.message);
    this.name = "LicensingApiError";
    this.code = failure.code;
    this.status = failure.status;
    this.retryable = failure.retryable;
    this.retryAfterMs = failure.retryAfterMs;
  }
}

/** A live activation of the license, as `listMachines()` and a seat-limit refusal list them. */
export interface Machine {
  activationId: string;
  /** The name the machine activated with (its host name by default); null when it sent none. */
  machineName: string | null;
  /** Epoch ms. */
  activatedAt: number;
  /** Epoch ms; null before its first heartbeat. */
  lastHeartbeatAt: number | null;
}

/**
 * What the server answers an activation (the API's `ActivateResponse`, written out so that the published
 * declarations need no workspace package).
 */
export interface Activation {
  activationId: string;
  /** The signed offline marker. */
  heartbeatToken: string;
  heartbeatIntervalSeconds: number;
  maxOfflineDays: number;
  /** The server recognised this machine from its components and kept its activation (issue 22). */
  healed: boolean;
  /** The certificate of the marker's key, when it is not the template's root (decision 0049). */
  certificate?: string | undefined;
  /** The ended certificate of the license's key, once that key is retired. */
  licenseCertificate?: string | undefined;
}

export type ApiResult<T> =
  | { ok: true; value: T; serverTime: number | null }
  | { ok: false; error: ApiFailure; serverTime: number | null };

export interface ServerApiOptions {
  serverUrl: string;
  licenseKey: string;
  fetch: typeof globalThis.fetch;
  clock: () => number;
  /** Real milliseconds before a request is abandoned. */
  requestTimeoutMs: number;
}

const STALE: ErrorCode = "hmac.stale";
const CLIENT_API = "/api/v1/client";

/** The service's base address, given as `https://host` or as the API's `https://host/api/v1`. */
export const serviceBase = (serverUrl: string) =>
  serverUrl
    .trim()
    .replace(/\/+$/, "")
    .replace(/\/api\/v1$/i, "")
    .replace(/\/+$/, "");

const time = (value: unknown) => (typeof value === "string" ? Date.parse(value) : NaN);

function readMachines(value: unknown): Machine[] | null {
  if (!Array.isArray(value)) return null;
  const machines: Machine[] = [];
  for (const item of value as Array<Record<string, unknown> | null>) {
    const activatedAt = time(item?.activatedAt);
    const lastHeartbeatAt = item?.lastHeartbeatAt == null ? null : time(item.lastHeartbeatAt);
    if (
      typeof item?.activationId !== "string" ||
      (item.machineName != null && typeof item.machineName !== "string") ||
      Number.isNaN(activatedAt) ||
      Number.isNaN(lastHeartbeatAt)
    )
      return null;
    machines.push({
      activationId: item.activationId,
      machineName: (item.machineName as string | null | undefined) ?? null,
      activatedAt,
      lastHeartbeatAt,
    });
  }
  return machines;
}

/**
 * The client API as the SDK calls it. Heartbeat and deactivate are signed; a clock outside the server's
 * ±5 minute window is corrected from the response's `Date` on the first `hmac.stale`, and the learned offset
 * signs every later request.
 */
export class ServerApi {
  /** Server time minus the clock (ms), learned from a stale-timestamp answer. */
  clockOffsetMs = 0;
  private readonly sign;
  private readonly base: string;

  constructor(private readonly options: ServerApiOptions) {
    this.sign = requestSigner(options.licenseKey);
    this.base = serviceBase(options.serverUrl);
  }

  activate({
    hwFingerprint,
    machineName,
    components,
  }: {
    hwFingerprint: string;
    machineName: string | null;
    components: FingerprintComponent[];
  }) {
    const body = {
      licenseKey: this.options.licenseKey,
      hwFingerprint,
      ...(machineName ? { machineName } : {}),
      ...(components.length ? { components } : {}),
    };
    return this.call("activate", false, body, (value): Activation | null => {
      const v = value as Partial<Activation> | null;
      return typeof v?.activationId === "string" &&
        typeof v.heartbeatToken === "string" &&
        Number.isFinite(v.heartbeatIntervalSeconds)
        ? { ...(v as Activation), healed: v.healed === true }
        : null;
    });
  }

  /** The license's live activations (`POST /client/machines`, signed). */
  machines() {
    return this.call("machines", true, { licenseKey: this.options.licenseKey }, (value) =>
      readMachines((value as { machines?: unknown } | null)?.machines),
    );
  }

  heartbeat(activationId: string) {
    return this.call("heartbeat", true, { licenseKey: this.options.licenseKey, activationId }, (value) => {
      const v = value as Partial<HeartbeatResponse> | null;
      return typeof v?.heartbeatToken === "string" ? (v as HeartbeatResponse) : null;
    });
  }

  deactivate(activationId: string) {
    return this.call("deactivate", true, { licenseKey: this.options.licenseKey, activationId }, () => true);
  }

  /** A signed call of the client API (`name` after `/api/v1/client/`); `read` checks the answer. */
  request<T>(name: string, body: Record<string, unknown>, read: (value: unknown) => T | null) {
    return this.call(name, true, { licenseKey: this.options.licenseKey, ...body }, read);
  }

  private async call<T>(
    name: string,
    signed: boolean,
    body: Record<string, unknown>,
    read: (value: unknown) => T | null,
  ): Promise<ApiResult<T>> {
    const url = `${this.base}${CLIENT_API}/${name}`;
    const text = JSON.stringify(body);
    let result = await this.send(url, text, signed, read);
    if (!result.ok && result.error.code === STALE && result.serverTime !== null) {
      this.clockOffsetMs = result.serverTime - this.options.clock();
      result = await this.send(url, text, signed, read);
    }
    return result;
  }

  private async send<T>(
    url: string,
    body: string,
    signed: boolean,
    read: (value: unknown) => T | null,
  ): Promise<ApiResult<T>> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json",
    };
    if (signed) {
      const timestampSeconds = Math.floor((this.options.clock() + this.clockOffsetMs) / 1000);
      Object.assign(
        headers,
        await this.sign({ timestampSeconds, method: "POST", path: new URL(url).pathname, body }),
      );
    }
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.options.requestTimeoutMs);
    (timer as { unref?: () => void }).unref?.();
    let response: Response;
    let raw: string;
    try {
      response = await this.options.fetch(url, { method: "POST", headers, body, signal: abort.signal });
      raw = await response.text();
    } catch (error) {
      const timedOut = abort.signal.aborted;
      const failure = timedOut
        ? `No answer within ${this.options.requestTimeoutMs} ms`
        : `The server could not be reached: ${(error as Error)?.message ?? String(error)}`;
      return {
        ok: false,
        serverTime: null,
        error: {
          code: timedOut ? "network.timeout" : "network.error",
          message: failure,
          status: null,
          retryable: true,
          retryAfterMs: null,
        },
      };
    } finally {
      clearTimeout(timer);
    }
    const payload = parseJson(raw);
    const date = Date.parse(response.headers.get("date") ?? "");
    const serverTime = Number.isNaN(date) ? null : date;
    if (response.ok) {
      const value = read(payload);
      if (value !== null) return { ok: true, value, serverTime };
    }
    const status = response.status;
    const error = payload as Partial<{
      code: ClientErrorCode;
      message: string;
      machines: unknown;
      retryAt: unknown;
      revocation: unknown;
      holders: unknown;
    }> | null;
    const known = response.ok ? null : typeof error?.code === "string" ? error : null;
    const machines = readMachines(known?.machines);
    const retryAt = time(known?.retryAt);
    return {
      ok: false,
      serverTime,
      error: {
        code: known?.code ?? (response.ok ? "response.invalid" : `http.${status}`),
        message: known?.message ?? `Unexpected answer: HTTP ${status}`,
        status,
        retryable: response.ok || status >= 500 || status === 429 || status === 408,
        retryAfterMs: parseRetryAfter(
          response.headers.get("retry-after"),
          serverTime ?? this.options.clock(),
        ),
        ...(machines ? { machines } : {}),
        // Read by the lease code, which loads only for a floating license.
        ...(known?.holders ? { holders: known.holders as LeaseHolder[] } : {}),
        ...(Number.isNaN(retryAt) ? {} : { retryAt }),
        ...(typeof known?.revocation === "string" ? { revocation: known.revocation } : {}),
      },
    };
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}
