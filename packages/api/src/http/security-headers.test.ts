import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLicensedCompany, startTestApp, type TestApp, type TestClient } from "../testing/index.ts";

/** Issue 19 item 6: the security headers, on real HTTP responses of the real app. */

const CONFIG = '{"features":["x"],"limits":{"maxSeats":3}}';
const trpcInput = (json: unknown) => encodeURIComponent(JSON.stringify({ json }));
/** A tRPC result as its HTTP adapter sends it (superjson). */
type TrpcResultWire<T> = { result: { data: { json: T } } };

/** The directives of a Content-Security-Policy header, by name. */
function directivesOf(header: string | null) {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values.join(" ")];
    }),
  );
}

let app: TestApp;
let operator: TestClient;
beforeAll(async () => {
  app = await startTestApp({ webhooks: { allowPrivate: true } });
  operator = await app.client({ signIn: true });
});
afterAll(() => app.close());

describe("every response", () => {
  it("carries the policy: no framing, no inline script or style, nothing from elsewhere", async () => {
    const anonymous = await app.client();
    const responses = [
      await anonymous.get("/healthz"),
      await anonymous.api.auth.me(),
      await anonymous.get("/trpc/auth.me"),
      await anonymous.api.client.activate({ body: { licenseKey: "SVC-NOPE", hwFingerprint: "fp" } }),
      await anonymous.get("/elsewhere"),
    ];
    for (const res of responses) {
      const csp = directivesOf(res.headers.get("content-security-policy"));
      expect(csp).toEqual({
        "default-src": "'self'",
        "base-uri": "'none'",
        "connect-src": "'self'",
        "font-src": "'self'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
        "img-src": "'self' data:",
        "object-src": "'none'",
        "script-src": "'self'",
        "script-src-attr": "'none'",
        "style-src": "'self'",
      });
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("cross-origin-opener-policy")).toBe("same-origin");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("sends no HSTS when PUBLIC_BASE_URL is http", async () => {
    expect(app.url).toMatch(/^http:/);
    const res = await (await app.client()).get("/healthz");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("PUBLIC_BASE_URL on https", () => {
  let secure: TestApp;
  beforeAll(async () => {
    secure = await startTestApp({ publicBaseUrl: "https://licensing.example.com" });
  });
  afterAll(() => secure.close());

  it("adds HSTS for a year, subdomains included", async () => {
    const client = await secure.client();
    for (const path of ["/healthz", "/api/v1/panel/auth/me", "/api/docs/"]) {
      const res = await client.get(path);
      expect(res.headers.get("strict-transport-security"), path).toBe("max-age=31536000; includeSubDomains");
    }
  });
});

describe("responses that carry a secret", () => {
  const expectNoStore = (res: { status: number; headers: Headers; text: string }, what: string) => {
    expect(res.status, `${what}: ${res.text.slice(0, 200)}`).toBeLessThan(300);
    expect(res.headers.get("cache-control"), what).toBe("no-store");
  };

  it("are never stored: REST issue, bulk issue, .lic, access token, 2FA enrolment, webhook", async () => {
    const target = await createLicensedCompany(operator);
    const issued = await operator.api.licenses.issue({ body: { ...target, config: CONFIG } });
    expectNoStore(issued, "issue");
    const bulk = await operator.api.licenses.bulkIssue({
      body: { templateId: target.templateId, config: CONFIG, items: [{ companyId: target.companyId }] },
    });
    expectNoStore(bulk, "bulk issue");
    expectNoStore(await operator.api.licenses.file({ params: { id: issued.body.id } }), ".lic download");
    expectNoStore(
      await operator.api.apiTokens.create({ body: { name: "ci", companyId: target.companyId } }),
      "access token",
    );
    expectNoStore(
      await operator.api.webhooks.create({
        body: {
          url: "http://127.0.0.1:9/hook",
          secret: "a-secret-of-24-characters",
          events: ["license.issued"],
        },
      }),
      "webhook",
    );
    // Enrolment alone (not enabled) leaves the operator's sign-in as it was.
    expectNoStore(await operator.api.auth.twoFactor.enroll(), "2FA enrolment");
  });

  // The headers of tRPC's HTTP answers are the subject: these calls are sent as the wire carries them.
  it("are never stored through tRPC either", async () => {
    const target = await createLicensedCompany(operator);
    const issued = await operator.post("/trpc/licenses.issue", { json: { ...target, config: CONFIG } });
    expectNoStore(issued, "licenses.issue");
    const { id } = (issued.json as TrpcResultWire<{ id: string }>).result.data.json;
    expectNoStore(
      await operator.post("/trpc/licenses.bulkIssue", {
        json: { templateId: target.templateId, config: CONFIG, items: [{ companyId: target.companyId }] },
      }),
      "licenses.bulkIssue",
    );
    expectNoStore(await operator.get(`/trpc/licenses.file?input=${trpcInput({ id })}`), "licenses.file");
    expectNoStore(
      await operator.post("/trpc/apiTokens.create", { json: { name: "ci", companyId: target.companyId } }),
      "apiTokens.create",
    );
    expectNoStore(
      await operator.post("/trpc/webhooks.create", {
        json: {
          url: "http://127.0.0.1:9/hook",
          secret: "a-secret-of-24-characters",
          events: ["license.issued"],
        },
      }),
      "webhooks.create",
    );
    expectNoStore(await operator.post("/trpc/auth.twoFactor.enroll", {}), "auth.twoFactor.enroll");
  });
});

describe("the API documentation at /api/docs", () => {
  it("allows Swagger UI's inline styles, and still no inline script", async () => {
    const res = await (await app.client()).get("/api/docs/");
    expect(res.status).toBe(200);
    const csp = directivesOf(res.headers.get("content-security-policy"));
    expect(csp["style-src"]).toBe("'self' 'unsafe-inline'");
    expect(csp["script-src"]).toBe("'self'");
    expect(csp["frame-ancestors"]).toBe("'none'");
    // Its scripts are files: the page has no inline <script> for the policy to block.
    expect(res.text).toMatch(/<script src="\.\/swagger-ui-init\.js">/);
    expect(res.text).not.toMatch(/<script>/);
    const init = await (await app.client()).get("/api/docs/swagger-ui-init.js");
    expect(init.status).toBe(200);
    expect(init.headers.get("content-security-policy")).toBe(res.headers.get("content-security-policy"));
  });
});
