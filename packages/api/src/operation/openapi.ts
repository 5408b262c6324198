import { ErrorResponse, errorCatalogue } from "@licensing/contracts";
import { z, type ZodType } from "zod";
import { errorKindMapping } from "../errors.ts";
import type { AnyOperation } from "./operation.ts";

type JsonSchema = Record<string, unknown>;

/** OpenAPI 3.1 from the same zod schemas that validate the requests. */
export function buildOpenApiDocument(routes: AnyOperation[], info: { version: string; serverUrl: string }) {
  const components: Record<string, JsonSchema> = {};

  // zod writes shared schemas (those with a `meta({ id })`) to `$defs`; they move to components.
  const toSchema = (schema: ZodType, io: "input" | "output"): JsonSchema => {
    const {
      $schema: _ignored,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
    }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [id, def] of Object.entries($defs ?? {})) components[id] ??= rewriteRefs(def);
    return rewriteRefs(root);
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const parameters = [
      ...objectParameters(r.params, "path", toSchema),
      ...objectParameters(r.query, "query", toSchema),
    ];
    const success = r.response
      ? {
          [String(r.status ?? 200)]: {
            description: "Success",
            content: {
              [r.attachment?.contentType ?? r.produces ?? "application/json"]: {
                schema: toSchema(r.response, "output"),
              },
            },
          },
        }
      : { "204": { description: "No content" } };
    const errorStatuses = new Set<number>([400, 429, 500]);
    if (r.auth !== "public") errorStatuses.add(401);
    for (const code of r.errors ?? []) errorStatuses.add(errorKindMapping[errorCatalogue[code]].status);
    const errors = Object.fromEntries(
      [...errorStatuses].sort().map((status) => [
        String(status),
        {
          description: describeErrors(r, status),
          content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorResponse" } } },
        },
      ]),
    );
    (paths[r.path] ??= {})[r.method] = {
      summary: r.summary,
      tags: r.tags,
      operationId: operationId(r),
      ...(r.auth === "public" ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(r.body
        ? {
            requestBody: {
              required: !r.body.safeParse(undefined).success,
              content: { "application/json": { schema: toSchema(r.body, "input") } },
            },
          }
        : {}),
      responses: { ...success, ...errors },
    };
  }
  toSchema(ErrorResponse, "output");

  return {
    openapi: "3.1.0",
    info: {
      title: "Licensing service API",
      version: info.version,
      description: "Panel API (sessions or personal access tokens) and client API (license key and HMAC).",
    },
    servers: [{ url: `${info.serverUrl}/api/v1` }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "service.auth" },
        accessToken: { type: "http", scheme: "bearer", description: "svc_pat_… personal access token" },
      },
    },
    security: [{ session: [] }, { accessToken: [] }],
  };
}

function objectParameters(
  schema: z.ZodObject | undefined,
  location: "path" | "query",
  toSchema: (s: ZodType, io: "input") => JsonSchema,
) {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    in: location,
    required: location === "path" || !(field as ZodType).safeParse(undefined).success,
    schema: toSchema(field as ZodType, "input"),
  }));
}

function describeErrors(r: AnyOperation, status: number) {
  const codes = (r.errors ?? []).filter((c) => errorKindMapping[errorCatalogue[c]].status === status);
  const generic: Record<number, string> = {
    400: "request.invalid, request.malformed_json",
    401: "auth.unauthenticated",
    429: "rate_limit.exceeded",
    500: "internal",
  };
  return [...codes, generic[status]].filter(Boolean).join(", ");
}

const operationId = (r: AnyOperation) =>
  r.method +
  r.path
    .split(/[/{}-]/)
    .filter(Boolean)
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join("");

const rewriteRefs = (value: JsonSchema): JsonSchema =>
  JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
