import { ErrorResponse, errorCatalogue, type ErrorCode } from "@licensing/contracts";
import { SIGNATURE_WINDOW_SECONDS } from "@licensing/protocol";
import signatureVectors from "@licensing/protocol/vectors/signatures.json" with { type: "json" };
import { z, type ZodType } from "zod";
import { errorKindMapping, RETRY_AFTER_SECONDS } from "../errors.ts";
import { errorExampleDetails, errorExampleMessages } from "./error-examples.ts";
import type { AnyOperation, BodySchema } from "./operation.ts";

type JsonSchema = Record<string, unknown>;

const statusOf = (code: ErrorCode) => errorKindMapping[errorCatalogue[code]].status;

/**
 * OpenAPI 3.1 from the same declarations and zod schemas that serve the requests (decision 0039).
 *
 * What a caller sends and what it gets back are described apart, because zod's defaults make them
 * differ: `components.requestBodies` and the parameters hold the input side (a field with a default is
 * optional, and its `default` says what the server assumes), `components.schemas` the output side (the
 * same field is always present). Request schemas are written out in full rather than pointing into
 * `components.schemas`, so no input ever reuses an output component.
 */
export function buildOpenApiDocument(routes: AnyOperation[], info: { version: string; serverUrl: string }) {
  const schemas: Record<string, JsonSchema> = {};
  const requestBodies: Record<string, JsonSchema> = {};

  const convert = (schema: ZodType, io: "input" | "output") => {
    const {
      $schema: _ignored,
      $defs,
      ...root
    } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    return { root: tidy(root), defs: $defs ?? {} };
  };

  // Shared output schemas (those with a `meta({ id })`) become components.
  const outputSchema = (schema: ZodType): JsonSchema => {
    const { root, defs } = convert(schema, "output");
    for (const [id, def] of Object.entries(defs)) schemas[id] ??= pointToComponents(tidy(def));
    return pointToComponents(root);
  };
  const inputSchema = (schema: ZodType): JsonSchema => {
    const { root, defs } = convert(schema, "input");
    return inline(root, defs, []);
  };

  const requestBody = (body: BodySchema) => {
    const required = !body.safeParse(undefined).success;
    const content = { "application/json": { schema: inputSchema(body) } };
    const id = z.globalRegistry.get(body instanceof z.ZodOptional ? body.unwrap() : body)?.id;
    if (!id) return { required, content };
    const existing = requestBodies[id];
    if (existing && existing.required !== required)
      throw new Error(`${id} is a required request body in one operation and optional in another`);
    requestBodies[id] ??= { required, content };
    return { $ref: `#/components/requestBodies/${id}` };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters = [
      ...objectParameters(r.params, "path", inputSchema),
      ...objectParameters(r.query, "query", inputSchema),
      ...(r.idempotent ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
    ];
    (paths[r.path] ??= {})[r.method] = {
      summary: r.summary,
      description: describeOperation(r),
      tags: r.tags,
      operationId: operationId(r),
      ...securityOf(r),
      ...(parameters.length ? { parameters } : {}),
      ...(r.body ? { requestBody: requestBody(r.body) } : {}),
      responses: { ...successResponse(r, outputSchema), ...errorResponses(r) },
    };
  }
  outputSchema(ErrorResponse);

  return {
    openapi: "3.1.0",
    info: { title: "Licensing service API", version: info.version, description: overview },
    servers: [{ url: `${info.serverUrl}/api/v1` }],
    paths,
    components: {
      schemas,
      requestBodies,
      parameters: { IdempotencyKey: idempotencyKeyParameter },
      headers: responseHeaders,
      securitySchemes,
    },
    security: [{ session: [] }, { accessToken: [] }],
  };
}

function objectParameters(
  schema: z.ZodObject | undefined,
  location: "path" | "query",
  inputSchema: (s: ZodType) => JsonSchema,
) {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, ...fieldSchema } = inputSchema(field as ZodType);
    return {
      name,
      in: location,
      required: location === "path" || !(field as ZodType).safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: fieldSchema,
    };
  });
}

function successResponse(r: AnyOperation, outputSchema: (s: ZodType) => JsonSchema) {
  const headers = rateLimitHeaders;
  if (!r.response) return { "204": { description: "No content", headers } };
  const mediaType = r.attachment?.contentType ?? r.produces ?? "application/json";
  return {
    [String(r.status ?? 200)]: {
      description: r.attachment || r.stream ? "The file, as an attachment" : "Success",
      headers,
      content: { [mediaType]: { schema: outputSchema(r.response) } },
    },
  };
}

/**
 * The errors an operation can answer, by status: the codes it declares, and those every operation of
 * its kind can meet (bad input, no credentials, the rate limit, a lost database).
 */
function errorResponses(r: AnyOperation) {
  const codes = new Set<ErrorCode>(["request.invalid", "request.malformed_json"]);
  if (r.auth !== "public")
    ["auth.unauthenticated", "auth.invalid_token"].forEach((c) => codes.add(c as ErrorCode));
  if (r.auth === "session") codes.add("auth.session_required");
  for (const code of r.errors ?? []) codes.add(code);
  ["rate_limit.exceeded", "internal", "database.unavailable"].forEach((c) => codes.add(c as ErrorCode));

  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.map((c) => `\`${c}\``).join(", "),
          headers:
            status === 429 || status === 503 || list.includes("lease.seats_exhausted")
              ? { ...rateLimitHeaders, ...retryAfter }
              : rateLimitHeaders,
          content: {
            "application/json": {
              schema: { $ref: "#/components/schemas/ErrorResponse" },
              examples: Object.fromEntries(
                list.map((code) => [
                  code,
                  {
                    summary: code,
                    value: {
                      code,
                      message: errorExampleMessages[code],
                      status,
                      ...(errorExampleDetails as Partial<Record<ErrorCode, object>>)[code],
                    },
                  },
                ]),
              ),
            },
          },
        },
      ]),
  );
}

const accessText = (r: AnyOperation) => {
  if (r.signed)
    return "Public, signed: the license key travels in the body and the request is signed with it (security scheme `clientSignature`).";
  if (r.auth === "public") return "Public: no session or token needed.";
  if (r.auth === "session")
    return "A signed-in session only (cookie `service.auth`); a personal access token is refused with `auth.session_required`.";
  return "A signed-in session (cookie `service.auth`) or a personal access token (`Authorization: Bearer svc_pat_…`), with the role named above.";
};

/** The declared description, then what the declaration's fields say about access, events and retries. */
function describeOperation(r: AnyOperation) {
  const lines = [r.description.trim(), "", `**Access:** ${accessText(r)}`];
  if (r.events?.length)
    lines.push(
      "",
      `**Publishes:** ${r.events.map((e) => `\`${e}\``).join(", ")} (webhook events, written in the same transaction and delivered after it commits).`,
    );
  if (r.idempotent)
    lines.push(
      "",
      "**Retries:** send an `Idempotency-Key`; a repeat with the same key and body within 24 hours gets the first answer again instead of acting twice.",
    );
  return lines.join("\n");
}

function securityOf(r: AnyOperation) {
  if (r.signed) return { security: [{ clientTimestamp: [], clientSignature: [] }] };
  if (r.auth === "public") return { security: [] };
  if (r.auth === "session") return { security: [{ session: [] }] };
  return {};
}

const signatureExample = signatureVectors.cases[0]!;

const securitySchemes = {
  session: {
    type: "apiKey",
    in: "cookie",
    name: "service.auth",
    description:
      "The session cookie set by `POST /panel/auth/login` (or `/login/2fa`), HttpOnly. Requests that change state with it must come from the service's own origin (`auth.cross_origin`).",
  },
  accessToken: {
    type: "http",
    scheme: "bearer",
    description:
      "A personal access token `svc_pat_…` (`POST /panel/api-tokens`), acting as an Admin of its company and the companies below it; it cannot call the operations that need a session.",
  },
  clientTimestamp: {
    type: "apiKey",
    in: "header",
    name: "X-Service-Timestamp",
    description: `Unix time in whole seconds when the request was signed, e.g. \`${signatureExample.timestamp}\`. It must be within ${SIGNATURE_WINDOW_SECONDS} s of the server's clock (\`hmac.stale\`); the client API's \`Date\` header is that clock, for a client to correct its own.`,
  },
  clientSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Service-Signature",
    description: [
      "`v1=<hex>,v2=<hex>` (either part alone is accepted): lowercase hex of HMAC-SHA256 keyed with the UTF-8 bytes of the license key, over",
      "",
      "- **v1**: the timestamp, exactly as sent in `X-Service-Timestamp`;",
      "- **v2**: `<timestamp>.<METHOD>.<path>.<hex SHA-256 of the raw body bytes>`, where the path is the request's path without its query, `/api/v1` included.",
      "",
      "v2 also binds the method, path and body, so a captured header cannot sign another request; a v2 part is checked whenever it is sent, and a server run with `CLIENT_SIGNATURE_MIN_VERSION=v2` refuses v1 alone (`hmac.v2_required`). Send both.",
      "",
      `Example: key \`${signatureExample.licenseKey}\`, timestamp \`${signatureExample.timestamp}\`, \`${signatureExample.method} ${signatureExample.path}\` with the body \`${signatureExample.body}\` sign \`${signatureExample.v2SigningString}\` (v2), and the header is \`${signatureExample.header}\`.`,
    ].join("\n"),
  },
};

const idempotencyKeyParameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: a repeat with the same key and the same body within 24 hours gets the stored answer again and changes nothing; the same key with another body is `idempotency.key_reused` (409). Keys belong to the caller (session user or access token). 1 to 255 visible ASCII characters; a UUID is a good choice.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
  example: "9f1c2b4e-7d3a-4e8b-a5c6-0d1e2f3a4b5c",
};

const header = (description: string, example: number | string) => ({
  description,
  schema: { type: typeof example === "number" ? "integer" : "string" },
  example,
});
const responseHeaders = {
  RateLimitPolicy: header("The contour's limit and window: `<limit>;w=<seconds>`.", "300;w=60"),
  RateLimitLimit: header("Requests allowed in the window (per IP and contour).", 300),
  RateLimitRemaining: header("Requests left in the current window.", 297),
  RateLimitReset: header("Seconds until the window ends and the count starts again.", 42),
  RetryAfter: header(
    `Seconds to wait before retrying: the rest of the rate-limit window, the end of a sign-in lockout, or ${RETRY_AFTER_SECONDS} for a lost database.`,
    RETRY_AFTER_SECONDS,
  ),
};
const rateLimitHeaders = Object.fromEntries(
  (["Policy", "Limit", "Remaining", "Reset"] as const).map((part) => [
    `RateLimit-${part}`,
    { $ref: `#/components/headers/RateLimit${part}` },
  ]),
);
const retryAfter = { "Retry-After": { $ref: "#/components/headers/RetryAfter" } };

const overview = [
  "The licensing service's REST API. Every path below is relative to the server URL (`…/api/v1`).",
  "",
  "- **Client API** (`/client/…`, tag Client): what installed programs call. Public; the license key is in the body, and the calls after activation are signed with it (security scheme `clientSignature`).",
  "- **Panel API** (`/panel/…`): the administration. A session cookie from `POST /panel/auth/login`, or a personal access token (`Authorization: Bearer svc_pat_…`). What a caller may do follows its role (Viewer, Admin, Owner) on a company and its subtree, or operator rights; each operation says which it needs.",
  "",
  "**Errors** are always `{code, message, status}` with a stable `code` (the responses list the codes each operation can answer); `message` is for people.",
  "",
  "**Rate limits:** a fixed one-minute window per client IP and contour (client, panel auth, the rest of the panel); every answer carries `RateLimit-Policy`, `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`, and a 429 also `Retry-After`. A 503 (`database.unavailable`) carries `Retry-After` too and is safe to retry.",
  "",
  "**Retries of writes:** operations that accept `Idempotency-Key` replay their first answer for 24 hours.",
].join("\n");

/** zod writes `z.int()` with the safe-integer bounds; they say nothing to a reader and make poor examples. */
function tidy(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema), (_key, value: unknown) => {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const { minimum, maximum, ...rest } = value as JsonSchema;
      return {
        ...rest,
        ...(minimum !== undefined && minimum !== Number.MIN_SAFE_INTEGER ? { minimum } : {}),
        ...(maximum !== undefined && maximum !== Number.MAX_SAFE_INTEGER ? { maximum } : {}),
      };
    }
    return value;
  }) as JsonSchema;
}

/** Replaces each `#/$defs/…` reference of an input schema with the definition itself. */
function inline(schema: JsonSchema, defs: Record<string, JsonSchema>, seen: string[]): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    const { $ref, ...rest } = value as JsonSchema;
    const own = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v)]));
    if (typeof $ref !== "string") return own;
    const id = $ref.replace("#/$defs/", "");
    const def = defs[id];
    if (!def || seen.includes(id)) throw new Error(`Cannot write out the input schema ${$ref}`);
    return { ...inline(tidy(def), defs, [...seen, id]), ...own };
  };
  return walk(schema) as JsonSchema;
}

const operationId = (r: AnyOperation) =>
  r.method +
  r.path
    .split(/[/{}-]/)
    .filter(Boolean)
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join("");

const pointToComponents = (value: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
