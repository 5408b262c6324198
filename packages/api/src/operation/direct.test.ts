import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientOperations } from "../client/operations.ts";
import { contourRateLimit } from "../http/rate-limit.ts";
import { signedPost, startTestApp, type TestApp } from "../testing/index.ts";
import { useClientApi } from "../testing/client-fixture.ts";
import { directRoutes } from "./direct.ts";
import { flattenOperations } from "./operation.ts";

/** Decision 0057: the client API's plain JSON calls skip Express, and answer exactly as Express would. */

const clientList = flattenOperations(clientOperations).map(({ op }) => op);
const HEARTBEAT = "/api/v1/client/heartbeat";
/** The same operation through the Express routes: they take a trailing slash, the direct routes do not. */
const VIA_EXPRESS = `${HEARTBEAT}/`;

describe("which requests the direct routes take", () => {
  let app: TestApp;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    app = await startTestApp();
    const direct = directRoutes(clientList, {
      deps: app.deps,
      limiter: contourRateLimit("client", 1000, app.clock),
      headers: [],
      validateResponses: true,
      prefix: "/api/v1",
      trustProxy: () => false,
    });
    // Whatever the direct routes pass on is answered 418 here, so a test can tell.
    const server = createServer((req, res) => direct(req, res, () => void res.writeHead(418).end()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });
  afterAll(async () => {
    await close();
    await app.close();
  });

  const send = (
    path: string,
    init: { method?: string; type?: string; encoding?: string; body?: Buffer | string },
  ) =>
    fetch(url + path, {
      method: init.method ?? "POST",
      headers: {
        ...(init.type === undefined ? {} : { "content-type": init.type }),
        ...(init.encoding === undefined ? {} : { "content-encoding": init.encoding }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
    }).then((res) => res.status);

  it("takes a POST of JSON to a declared path, with or without a UTF-8 charset or a query", async () => {
    // An empty object is refused by the heartbeat's schema: the operation ran.
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "Application/JSON;charset=UTF-8",
    ])
      expect([type, await send(HEARTBEAT, { type, body: "{}" })]).toEqual([type, 400]);
    expect(await send(`${HEARTBEAT}?x=1`, { type: "application/json", body: "{}" })).toBe(400);
    expect(await send("/api/v1/client/leases/renew", { type: "application/json", body: "{}" })).toBe(400);
    expect(await send(HEARTBEAT, { type: "application/json", encoding: "identity", body: "{}" })).toBe(400);
  });

  it("passes on everything else, for the Express routes to answer as before", async () => {
    const json = "application/json";
    const passed = [
      await send(VIA_EXPRESS, { type: json, body: "{}" }),
      await send("/API/v1/client/heartbeat", { type: json, body: "{}" }),
      await send(HEARTBEAT, { method: "PUT", type: json, body: "{}" }),
      await send("/api/v1/client/revocations", { method: "GET" }),
      await send(HEARTBEAT, { type: "text/plain", body: "{}" }),
      await send(HEARTBEAT, { body: "{}" }),
      await send(HEARTBEAT, { type: "application/json; charset=latin1", body: "{}" }),
      await send(HEARTBEAT, { type: json, encoding: "gzip", body: gzipSync("{}") }),
      await send("/api/v1/panel/licenses", { type: json, body: "{}" }),
    ];
    expect(passed).toEqual(passed.map(() => 418));
  });
});

describe("the direct routes and the Express routes answer alike", () => {
  const fixture = useClientApi();

  /** Status, body and the headers that do not change per request, as a caller sees them. */
  async function outcome(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
    const res = await fetch(fixture.app.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    const text = await res.text();
    const names = [...res.headers.keys()].filter((n) => !["date", "x-request-id"].includes(n)).sort();
    const stable = Object.fromEntries(
      names.filter((n) => !n.startsWith("ratelimit-")).map((n) => [n, res.headers.get(n)]),
    );
    return { status: res.status, body: text, names, stable, date: res.headers.get("date") };
  }

  it.each([
    ["malformed JSON", "{"],
    ["a scalar", '"text"'],
    ["null", "null"],
    ["an array", "[1]"],
    ["an empty body", ""],
    ["a wrong type", '{"licenseKey":5,"activationId":"x"}'],
    ["a NUL in a string", '{"licenseKey":"a\\u0000b","activationId":"x"}'],
    ["an unknown license, unsigned", '{"licenseKey":"LIC-NONE","activationId":"x"}'],
    ["too deep", `{"licenseKey":${"[".repeat(200)}${"]".repeat(200)}}`],
  ])("%s", async (_name, body) => {
    const direct = await outcome(HEARTBEAT, body);
    const viaExpress = await outcome(VIA_EXPRESS, body);
    expect(direct.status).toBeGreaterThanOrEqual(400);
    expect(direct).toEqual({ ...viaExpress, date: direct.date });
  });

  it("a body over 1 MiB", async () => {
    const body = JSON.stringify({ licenseKey: "x".repeat(1024 * 1024) });
    const direct = await outcome(HEARTBEAT, body);
    expect(direct.status).toBe(413);
    expect(direct).toEqual({ ...(await outcome(VIA_EXPRESS, body)), date: direct.date });
  });

  it("a heartbeat signed as the SDK signs it, and one whose signature does not match", async () => {
    const { license, activationId, client } = await fixture.activated();
    const now = fixture.app.clock.now();
    const body = { licenseKey: license.licenseKey, activationId };
    const direct = await signedPost(client, now, HEARTBEAT, body);
    const viaExpress = await signedPost(client, now, VIA_EXPRESS, body);
    expect([direct.status, viaExpress.status]).toEqual([200, 200]);
    expect(Object.keys(direct.json as object).sort()).toEqual(Object.keys(viaExpress.json as object).sort());
    const headerNames = (h: Headers) => [...h.keys()].sort();
    expect(headerNames(direct.headers)).toEqual(headerNames(viaExpress.headers));
    // The Date is the service's clock, which tests move (the SDK corrects a skewed clock from it).
    expect(direct.headers.get("date")).toBe(now.toUTCString());

    const forged = await signedPost(client, now, HEARTBEAT, body, { key: "not-the-license-key" });
    const forgedViaExpress = await signedPost(client, now, VIA_EXPRESS, body, { key: "not-the-license-key" });
    expect(forged.error.code).toBe("hmac.mismatch");
    expect(forged.json).toEqual(forgedViaExpress.json);
  });
});

describe("the client contour's rate limit", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimits: { client: 3 } });
  });
  afterAll(() => app.close());

  it("counts the direct routes and the Express routes in one window", async () => {
    const client = await app.client();
    const body = { licenseKey: "LIC-NONE", activationId: "x" };
    const statuses = [];
    for (const path of [HEARTBEAT, VIA_EXPRESS, HEARTBEAT, HEARTBEAT, VIA_EXPRESS])
      statuses.push((await client.request("POST", path, body)).status);
    expect(statuses.map((s) => (s === 429 ? "refused" : "counted"))).toEqual([
      "counted",
      "counted",
      "counted",
      "refused",
      "refused",
    ]);
    const refused = await client.request("POST", HEARTBEAT, body);
    expect(refused.error.code).toBe("rate_limit.exceeded");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");
  });
});

describe("the client address behind a proxy (TRUST_PROXY)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ rateLimits: { client: 2 }, trustProxy: 1 });
  });
  afterAll(() => app.close());

  it("is the one Express gives: each forwarded address has its window on both routes", async () => {
    const client = await app.client();
    const body = { licenseKey: "LIC-NONE", activationId: "x" };
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const status = async (path: string, ip: string) =>
      (await client.request("POST", path, body, from(ip))).status === 429 ? "refused" : "counted";
    expect([
      await status(HEARTBEAT, "203.0.113.1"),
      await status(VIA_EXPRESS, "203.0.113.1"),
      await status(HEARTBEAT, "203.0.113.2"),
      await status(HEARTBEAT, "203.0.113.1"),
      await status(VIA_EXPRESS, "203.0.113.2"),
      await status(VIA_EXPRESS, "203.0.113.2"),
    ]).toEqual(["counted", "counted", "counted", "refused", "counted", "refused"]);
  });
});
