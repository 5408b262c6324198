/** A failure the simulator reports as it is: the server's `{code, message, status}`, or its own. */
export class SimulatorError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/**
 * The panel REST API (`/api/v1/panel`) as an Admin: a personal access token, or a session cookie for the
 * bootstrap operator of the in-process server. Every non-2xx answer becomes a `SimulatorError`.
 */
export class PanelApi {
  private cookie: string | null = null;
  private credentials: { email: string; password: string } | null = null;

  constructor(
    readonly baseUrl: string,
    private readonly token: string | null,
  ) {}

  async login(email: string, password: string) {
    const res = await fetch(`${this.baseUrl}/api/v1/panel/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    await this.check(res, "POST /auth/login");
    const cookie = res.headers.get("set-cookie")?.split(";")[0];
    if (!cookie) throw new SimulatorError("simulator.login", "The server set no session cookie");
    this.cookie = cookie;
    this.credentials = { email, password };
  }

  get<T>(path: string) {
    return this.request<T>("GET", path);
  }

  post<T>(path: string, body?: unknown) {
    return this.request<T>("POST", path, body);
  }

  delete<T>(path: string) {
    return this.request<T>("DELETE", path);
  }

  /** A public endpoint of the client contour (`/api/v1/client`), unauthenticated, as a program calls it. */
  async client<T>(path: string): Promise<T> {
    const res = await this.send("GET", path, undefined, "/api/v1/client");
    await this.check(res, `GET /client${path}`);
    return (await res.json()) as T;
  }

  /** The response's text (the license file of `/download`). */
  async text(path: string): Promise<string> {
    const res = await this.send("GET", path);
    await this.check(res, `GET ${path}`);
    return res.text();
  }

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res = await this.send(method, path, body);
    if (res.status === 401 && this.credentials) {
      // The session ended as the virtual clock moved (7 days without a request, or past its lifetime).
      await res.text();
      await this.login(this.credentials.email, this.credentials.password);
      res = await this.send(method, path, body);
    }
    await this.check(res, `${method} ${path}`);
    return (res.status === 204 ? null : await res.json()) as T;
  }

  private async send(method: string, path: string, body?: unknown, prefix = "/api/v1/panel") {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (prefix === "/api/v1/panel") {
      if (this.token) headers.authorization = `Bearer ${this.token}`;
      if (this.cookie) headers.cookie = this.cookie;
    }
    try {
      return await fetch(`${this.baseUrl}${prefix}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new SimulatorError(
        "simulator.unreachable",
        `${method} ${this.baseUrl}${prefix}${path}: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
  }

  private async check(res: Response, what: string) {
    if (res.ok) return;
    const text = await res.text();
    let body: { code?: string; message?: string } = {};
    try {
      body = JSON.parse(text);
    } catch {
      // not the service's error body
    }
    throw new SimulatorError(
      body.code ?? "http.error",
      `${what} answered ${res.status}: ${body.message ?? text.slice(0, 200)}`,
      res.status,
    );
  }
}
