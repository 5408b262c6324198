/** The operations of the served OpenAPI document, in the form the fuzzer needs. */

export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  /** OpenAPI path below the server URL, e.g. `/panel/licenses/{id}`. */
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  body: JsonSchema | undefined;
  public: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; requestBodies?: Record<string, RequestBody> };
}
interface RequestBody {
  content: { "application/json": { schema: JsonSchema } };
}
interface OpenApiOperation {
  operationId: string;
  security?: unknown[];
  parameters?: (Parameter & { in: "path" | "query" })[];
  /** Written out, or a `$ref` to `components.requestBodies`. */
  requestBody?: RequestBody | { $ref: string };
}

function requestBodyOf(op: OpenApiOperation, document: OpenApiDocument): RequestBody | undefined {
  const body = op.requestBody;
  if (!body || !("$ref" in body)) return body;
  return document.components.requestBodies?.[body.$ref.replace("#/components/requestBodies/", "")];
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = op.parameters ?? [];
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        // Header parameters (`$ref`s to Idempotency-Key) are not the fuzzer's.
        pathParams: parameters.filter((p) => p.in === "path"),
        query: parameters.filter((p) => p.in === "query"),
        body: requestBodyOf(op, document)?.content["application/json"].schema,
        public: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return operations;
}

/** Follows a `$ref` into the document's components. */
export function resolve(schema: JsonSchema, document: OpenApiDocument): JsonSchema {
  let current = schema;
  for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
    current = document.components.schemas[current.$ref.replace("#/components/schemas/", "")] ?? {};
  }
  return current;
}

export type { OpenApiDocument };
