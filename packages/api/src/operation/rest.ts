import { pipeline } from "node:stream/promises";
import { fail, findUnstorable, type Deps } from "@licensing/core";
import type { Request, RequestHandler, Response, Router } from "express";
import type { ZodType } from "zod";
import { describeZodError } from "../errors.ts";
import { resolveActor } from "../http/actor.ts";
import { currentRequestId } from "../http/logging.ts";
import { rawBodyOf } from "../http/raw-body.ts";
import {
  clearSessionCookie,
  readSessionCookie,
  setSessionCookie,
  type CookieSettings,
} from "../http/session-cookie.ts";
import type { CallRequest } from "./call-request.ts";
import type { AnyOperation, StreamedFile } from "./operation.ts";
import { callOperation } from "./reads.ts";

export interface MountOptions {
  deps: Deps;
  cookies: CookieSettings;
  /** Parse every response with its schema (tests), so the documented shapes are the real ones. */
  validateResponses: boolean;
}

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

export function parsePart(schema: ZodType | undefined, value: unknown, location: string): object | undefined {
  if (!schema) return undefined;
  // Before the schema and before any SQL: text PostgreSQL would refuse, or a hostile nesting.
  const unstorable = findUnstorable(value, location);
  if (unstorable) fail("request.invalid", `${unstorable.path}: ${unstorable.problem}`);
  const result = schema.safeParse(value ?? (location === "body" ? undefined : {}));
  if (!result.success) fail("request.invalid", describeZodError(result.error, location));
  return result.data as object | undefined;
}

/** The transport-neutral view of an Express request. */
export function restCallRequest(req: Request, res: Response, cookies: CookieSettings): CallRequest {
  // Read lazily: the heartbeat, most of the traffic, needs only the signature's parts.
  return {
    header: (name) => req.get(name),
    get info() {
      return { ip: req.ip ?? null, userAgent: req.get("user-agent") ?? null };
    },
    get requestId() {
      return currentRequestId();
    },
    get idempotencyKey() {
      return req.get("idempotency-key");
    },
    get sessionId() {
      return readSessionCookie(req);
    },
    setSessionCookie: (sessionId) =>
      sessionId ? setSessionCookie(res, sessionId, cookies) : clearSessionCookie(res, cookies),
    get signed() {
      return { method: req.method, path: req.originalUrl.split("?")[0]!, body: rawBodyOf(req) };
    },
    setStatus: (status) => void (res.locals.successStatus = status),
  };
}

async function sendStream(res: Response, file: StreamedFile) {
  res.status(200);
  res.setHeader("Content-Type", file.contentType);
  res.setHeader("Content-Disposition", `attachment; filename="${file.fileName}"`);
  res.setHeader("Cache-Control", "no-store");
  await pipeline(file.body, res).catch((error: NodeJS.ErrnoException) => {
    // The client went away mid-download: nothing to answer, nothing to log as a failure.
    if (error.code !== "ERR_STREAM_PREMATURE_CLOSE") throw error;
  });
}

/** The declared success status, unless the handler chose another (`CallRequest.setStatus`). */
const successStatus = (res: Response, op: AnyOperation): number =>
  (res.locals.successStatus as number | undefined) ?? op.status ?? 200;

/** Mounts each operation as an Express route: parse, authenticate, call, answer. */
export function mountOperations(router: Router, operations: AnyOperation[], options: MountOptions) {
  for (const op of operations) {
    // The route template for the request metrics, known once the route first matched (its mount point).
    let route: string | undefined;
    const handler: RequestHandler = async (req, res) => {
      res.locals.route = route ??= req.baseUrl + (req.route as { path: string }).path;
      const actor = op.auth === "public" ? null : await resolveActor(options.deps, req, res, options.cookies);
      if (op.auth !== "public" && !actor)
        fail("auth.unauthenticated", "Sign in or send a personal access token");
      if (op.auth === "session" && actor?.kind !== "user") {
        fail("auth.session_required", "This operation needs a signed-in session, not an access token");
      }
      const body = parsePart(op.body, req.body, "body");
      const query = parsePart(op.query, req.query, "query");
      const params = parsePart(op.params, req.params, "path");
      const input = { ...body, ...query, ...params };
      const result = await callOperation(op, {
        deps: options.deps,
        actor,
        input,
        request: restCallRequest(req, res, options.cookies),
      });
      if (op.stream) return sendStream(res, result as StreamedFile);
      if (res.headersSent) return;
      if (!op.response) {
        res.status(204).end();
        return;
      }
      const answer = options.validateResponses ? op.response.parse(result) : result;
      if (op.attachment) {
        res.setHeader(
          "Content-Disposition",
          `attachment; filename="${op.attachment.fileName(result as never)}"`,
        );
        res.type(op.attachment.contentType);
        res.status(successStatus(res, op)).send(Buffer.from(JSON.stringify(answer)));
        return;
      }
      res.status(successStatus(res, op)).json(answer);
    };
    router[op.method](expressPath(op.path), handler);
  }
}
