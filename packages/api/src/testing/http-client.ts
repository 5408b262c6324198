/** A tiny HTTP client for tests that keeps the session cookie like a browser would. */
export class TestClient {
  cookie: string | undefined;
  headers: Record<string, string> = {};

  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const init: RequestInit = {
      method,
      headers: {
        ...this.headers,
        ...(this.cookie ? { cookie: `service.auth=${this.cookie}` } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    };
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const setCookie = res.headers.get("set-cookie");
    if (setCookie?.startsWith("service.auth=")) {
      const value = setCookie.slice("service.auth=".length).split(";")[0];
      this.cookie = value || undefined;
    }
    const text = await res.text();
    const json =
      text && res.headers.get("content-type")?.includes("json") ? (JSON.parse(text) as unknown) : undefined;
    return { status: res.status, headers: res.headers, body: json as any, text }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  get = (path: string, headers?: Record<string, string>) => this.request("GET", path, undefined, headers);
  post = (path: string, body?: unknown, headers?: Record<string, string>) =>
    this.request("POST", path, body, headers);

  /** Signs in with a password (no 2FA) and keeps the cookie. */
  async login(email: string, password: string) {
    const res = await this.post("/api/v1/panel/auth/login", { email, password });
    if (res.status !== 200 || !this.cookie) throw new Error(`login failed: ${res.status} ${res.text}`);
    return res;
  }
}
