import type { ErrorResponse } from "@licensing/contracts";
import { apiClient, type ApiClient } from "./api-client.ts";
import type { operations } from "../catalogue.ts";
import { trpcClient, type TestTrpcClient } from "./trpc-client.ts";

/**
 * One HTTP answer. `body` is the success body as the operation declares it and `error` the error body;
 * reading the one that does not apply throws with the status and text, so a test that expected the
 * other outcome says what it got. `json` is the parsed body as sent, for tests of the wire format itself.
 */
export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  readonly body: T;
  readonly error: ErrorResponse;
}

export interface RequestOptions {
  /**
   * `auto` parses a JSON content type; `json` parses whatever the type (a download); `text` parses only
   * an error answer's JSON (a stream's success body stays its text).
   */
  parseAs?: "auto" | "json" | "text";
}

function answer<T>(status: number, headers: Headers, text: string, json: unknown): ApiResponse<T> {
  const outcome = (expected: string) => `expected ${expected}, got ${status}: ${text.slice(0, 500)}`;
  return {
    status,
    headers,
    text,
    json,
    get body() {
      if (status >= 400) throw new Error(outcome("a success"));
      return (json === undefined ? text || undefined : json) as T;
    },
    get error() {
      const body = json as Partial<ErrorResponse> | undefined;
      if (status < 400 || typeof body?.code !== "string") throw new Error(outcome("an error body"));
      return body as ErrorResponse;
    },
  };
}

/** A small HTTP client for tests that keeps the session cookie like a browser would. */
export class TestClient {
  cookie: string | undefined;
  headers: Record<string, string> = {};
  /** Every operation of the catalogue as a typed call: `client.api.licenses.issue({ body })`. */
  readonly api: ApiClient<typeof operations>;
  /** The admin app's tRPC API over real HTTP, with this client's cookie and headers. */
  readonly trpc: TestTrpcClient;

  constructor(readonly baseUrl: string) {
    this.api = apiClient(this);
    this.trpc = trpcClient(this);
  }

  /** The cookie and default headers this client sends, merged with `extra`. */
  headersFor(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...this.headers,
      ...(this.cookie ? { cookie: `service.auth=${this.cookie}` } : {}),
      ...extra,
    };
  }

  /** Keeps a session cookie the response sets (or clears). */
  keepCookie(headers: Headers) {
    const setCookie = headers.get("set-cookie");
    if (setCookie?.startsWith("service.auth=")) {
      const value = setCookie.slice("service.auth=".length).split(";")[0];
      this.cookie = value || undefined;
    }
  }

  /** Any request; the body is sent as JSON unless it is a string already. */
  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    { parseAs = "auto" }: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const send = () =>
      fetch(`${this.baseUrl}${path}`, {
        method,
        headers: this.headersFor({
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        }),
        ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      });
    // A pooled connection the server closed as idle while a long synchronous test held the event loop is
    // reset before the request reaches the server: sending it again on a new connection is safe.
    const res = await send().catch((error: unknown) => {
      if ((error as { cause?: { code?: string } }).cause?.code === "ECONNRESET") return send();
      throw error;
    });
    this.keepCookie(res.headers);
    const text = await res.text();
    const isJson =
      parseAs === "json" ||
      ((parseAs === "auto" || res.status >= 400) && res.headers.get("content-type")?.includes("json"));
    const json = text && isJson ? (JSON.parse(text) as unknown) : undefined;
    return answer<T>(res.status, res.headers, text, json);
  }

  get = <T = unknown>(path: string, headers?: Record<string, string>) =>
    this.request<T>("GET", path, undefined, headers);
  post = <T = unknown>(path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request<T>("POST", path, body, headers);

  /** Signs in with a password (no 2FA) and keeps the cookie. */
  async login(email: string, password: string) {
    const res = await this.api.auth.login({ body: { email, password } });
    if (res.status !== 200 || !this.cookie) throw new Error(`login failed: ${res.status} ${res.text}`);
    return res;
  }
}
