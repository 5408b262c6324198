import { errorCatalogue, TRPC_MAX_BATCH_SIZE } from "@licensing/contracts";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLicensedCompany,
  issueLicense,
  startTestApp,
  type TestApp,
  type TestClient,
} from "../testing/index.ts";
import { createTokenClient } from "../testing/fixtures.ts";
import { OPERATOR } from "../testing/index.ts";
import { badRequest, type BadRequest, type Known } from "../testing/fuzz/bad-requests.ts";
import { appRouter } from "../trpc/app-router.ts";
import { operationsOf, type OpenApiDocument, type Operation } from "../testing/fuzz/openapi-operations.ts";
import { trpcRequest, type Procedure, type TrpcRequest } from "../testing/fuzz/trpc-batches.ts";

/**
 * Issue 9, "done when": at least 10,000 generated bad requests across every operation of the OpenAPI
 * document. None may answer 5xx, every error body must be the spec's `{code, message, status}` with a
 * catalogued code and its status, and no body may carry a stack trace or a file path.
 * FUZZ_RUNS scales it (runs of BATCH concurrent requests); FUZZ_SEED replays a failure.
 */

const BATCH = 10;
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

let app: TestApp;
let operator: TestClient;
let document: OpenApiDocument;
let operations: Operation[];
let known: Known;

beforeAll(async () => {
  app = await startTestApp();
  operator = await app.client({ signIn: true });
  document = (await operator.get<OpenApiDocument>("/api/v1/openapi.json")).body;
  operations = operationsOf(document);
  const target = await createLicensedCompany(operator);
  const license = await issueLicense(operator, target, {
    config: '{"features":["x"],"limits":{"maxSeats":5}}',
  });
  const activation = await operator.api.client.activate({
    body: { licenseKey: license.licenseKey, hwFingerprint: "fp" },
  });
  const token = await createTokenClient(app, { id: target.companyId });
  known = {
    ids: [target.companyId, target.templateId, license.id, activation.body.activationId, token.id],
    licenseKeys: [license.licenseKey],
    cookie: () => operator.cookie,
    bearer: token.secret,
  };
}, 180_000);
afterAll(() => app.close());

const stackTrace = /\n\s+at |node_modules|\.[cm]?[jt]s:\d+|\/work\/|file:\/\//;

interface Outcome {
  request: BadRequest;
  status: number;
  text: string;
  ms: number;
}

async function send(request: BadRequest): Promise<Outcome> {
  const started = performance.now();
  const ms = () => performance.now() - started;
  try {
    const res = await fetch(`${app.url}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: "manual",
    });
    return { request, status: res.status, text: await res.text(), ms: ms() };
  } catch (error) {
    return { request, status: -1, text: String(error), ms: ms() };
  }
}

/** What is wrong with an answer, or null. */
function problem({ status, text }: Pick<Outcome, "status" | "text">): string | null {
  if (status < 0) return `no answer: ${text}`;
  if (status >= 500) return `status ${status}`;
  if (stackTrace.test(text)) return "a stack trace or a file path in the body";
  if (status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "an error body that is not JSON";
  }
  return errorShapeProblem(body, status);
}

function errorShapeProblem(body: unknown, status: number): string | null {
  const { code, message, status: bodyStatus, ...rest } = body as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string" || bodyStatus !== status)
    return "an error body that is not {code, message, status}";
  if (Object.keys(rest).length) return `extra fields in the error body: ${Object.keys(rest).join(", ")}`;
  if (!(code in errorCatalogue)) return `an uncatalogued code ${code}`;
  return null;
}

interface TrpcItem {
  error?: { json?: { data?: { httpStatus?: number; appCode?: string | null } } };
}

/**
 * What is wrong with a tRPC answer, or null. Refusals before tRPC (rate limits, batch size, a malformed
 * path) are in the spec's shape; tRPC's own answers carry each call's status and the spec's code (or
 * none, for tRPC's own errors such as an unknown procedure).
 */
function trpcProblem(request: TrpcRequest, status: number, text: string): string | null {
  if (status < 0 || status >= 500 || stackTrace.test(text)) return problem({ status, text });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "a body that is not JSON";
  }
  if (!Array.isArray(body) && (body as Record<string, unknown>).code !== undefined)
    return errorShapeProblem(body, status);
  if (request.calls === null) return "a path that does not decode reached tRPC";
  if (request.calls.length > TRPC_MAX_BATCH_SIZE) return `a batch of ${request.calls.length} calls ran`;
  for (const item of (Array.isArray(body) ? body : [body]) as TrpcItem[]) {
    const data = item.error?.json?.data;
    if (!item.error) continue;
    if (!data || typeof data.httpStatus !== "number") return "a tRPC error without its status";
    if (data.httpStatus >= 500) return `a call answered ${data.httpStatus}`;
    if (data.appCode != null && !(data.appCode in errorCatalogue))
      return `an uncatalogued code ${data.appCode}`;
  }
  return null;
}

describe("fuzz: bad requests from the OpenAPI document", () => {
  it(`${RUNS * BATCH} bad requests: no 5xx, every error in the spec's shape, no stack trace`, async () => {
    expect(operations.length).toBeGreaterThan(50);
    const perOperation = new Map<string, number>();
    const statuses = new Map<number, number>();
    const timeSpent = new Map<string, number>();
    let sent = 0;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const anyRequest = fc.oneof(...operations.map((op) => badRequest(op, document, known)));
    await fc.assert(
      fc.asyncProperty(fc.array(anyRequest, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const outcomes = await Promise.all(batch.map(send));
        for (const outcome of outcomes) {
          sent++;
          perOperation.set(outcome.request.operation, (perOperation.get(outcome.request.operation) ?? 0) + 1);
          timeSpent.set(
            outcome.request.operation,
            (timeSpent.get(outcome.request.operation) ?? 0) + outcome.ms,
          );
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
          const wrong = problem(outcome);
          if (wrong) {
            const { request } = outcome;
            const shown =
              typeof request.body === "string" ? request.body.slice(0, 300) : request.body ? "<binary>" : "";
            throw new Error(
              `${wrong}\n${request.method} ${request.url.slice(0, 300)}\nheaders ${JSON.stringify(request.headers).slice(0, 300)}\nbody ${shown}\nanswer ${outcome.status} ${outcome.text.slice(0, 300)}`,
            );
          }
        }
        // A generated logout or session end must not starve the rest of the run of an operator.
        if (
          !operator.cookie ||
          outcomes.some((o) => o.request.url.includes("/auth/logout") && o.status < 300)
        )
          await operator.login(OPERATOR.email, OPERATOR.password);
      }),
      {
        numRuns: RUNS,
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
        endOnFailure: true,
      },
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS * BATCH);
    // Every operation of the document was tried (with 1,000 runs each gets about 140 requests).
    if (RUNS >= 1000)
      for (const op of operations)
        expect([op.id, (perOperation.get(op.id) ?? 0) > 20]).toEqual([op.id, true]);
    const slowest = [...timeSpent]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([op, ms]) => `${op} ${Math.round(ms)} ms`);
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = ((cpu.user + cpu.system) / 1e6).toFixed(1);
    const wallSeconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(
      `fuzz: ${sent} requests in ${wallSeconds} s (${cpuSeconds} s of CPU in this process, server and client)`,
    );
    console.info(
      `fuzz: ${sent} requests over ${perOperation.size} operations; statuses ${JSON.stringify(Object.fromEntries(statuses))}; most time in ${slowest.join(", ")}`,
    );
  }, 900_000);
});

describe("fuzz: tRPC batches", () => {
  const runs = Math.max(10, Math.round(RUNS / 2));
  it(`${runs} generated tRPC requests: no 5xx, errors in their shape with catalogued codes`, async () => {
    // At run time the router's `procedures` is flat, keyed by dotted path (its type is the nested record).
    const flat = appRouter._def.procedures as unknown as Record<
      string,
      { _def: { type: Procedure["type"] } }
    >;
    const procedures = Object.entries(flat).map(([path, procedure]) => ({ path, type: procedure._def.type }));
    expect(procedures.filter((p) => p.path.startsWith("auth.")).length).toBeGreaterThan(5);
    const statuses = new Map<number, number>();
    let calls = 0;
    let authCalls = 0;
    let oversized = 0;
    await fc.assert(
      fc.asyncProperty(
        trpcRequest(procedures, () => operator.cookie),
        async (request) => {
          let status = -1;
          let text = "";
          try {
            const res = await fetch(`${app.url}${request.url}`, {
              method: request.method,
              headers: request.headers,
              body: request.body,
              redirect: "manual",
            });
            status = res.status;
            text = await res.text();
          } catch (error) {
            text = String(error);
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          const sent = request.calls ?? request.names;
          calls += sent.length;
          authCalls += sent.filter((n) => n.startsWith("auth.")).length;
          if (sent.length > TRPC_MAX_BATCH_SIZE) oversized++;
          const wrong = trpcProblem(request, status, text);
          if (wrong)
            throw new Error(
              `${wrong}\n${request.method} ${request.url.slice(0, 400)}\nbody ${request.body?.slice(0, 300) ?? ""}\nanswer ${status} ${text.slice(0, 400)}`,
            );
        },
      ),
      {
        numRuns: runs,
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
        endOnFailure: true,
      },
    );
    expect(authCalls).toBeGreaterThan(0);
    expect(oversized).toBeGreaterThan(0);
    console.info(
      `fuzz: ${runs} tRPC requests, ${calls} calls (${authCalls} auth.*, ${oversized} batches over ${TRPC_MAX_BATCH_SIZE}); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
  }, 900_000);
});
