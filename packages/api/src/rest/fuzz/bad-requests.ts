import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { resolve, type JsonSchema, type OpenApiDocument, type Operation } from "./openapi-operations.ts";

/**
 * fast-check arbitraries of hostile requests, built from the OpenAPI document. Each family the issue
 * names is a generator: malformed percent-encoding, Content-Encoding mismatch, NUL and unpaired
 * surrogates, deep nesting, oversized heads, plus wrong types, odd numbers and dates, injection strings.
 */

export interface Known {
  /** Ids and keys that exist, so some requests get past "not found" into the deeper code. */
  ids: string[];
  licenseKeys: string[];
  cookie: () => string | undefined;
  bearer: string;
}

export interface BadRequest {
  operation: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string | undefined;
}

const nested = (depth: number, leaf: string) => "[".repeat(depth) + leaf + "]".repeat(depth);

/** Any UTF-16 code unit, lone surrogates and NUL included. */
const codeUnitString = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 12,
});

const nastyStrings = fc.oneof(
  fc.constantFrom(
    "a\u0000b",
    "\u0000",
    "\ud800x",
    "x\udc00",
    "\udfff\ud800",
    "",
    " ",
    "%",
    "_%_",
    "\\",
    "'; drop table licenses; --",
    "../../etc/passwd",
    "__proto__",
    "constructor",
    "null",
    "NaN",
    "-1",
    "1e400",
    "0x10",
    "2026-13-45T99:99:99Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999Z",
    "+275760-09-13T00:00:00Z",
    "2026-01-01T00:00:00+25:00",
    "SVC-00000-00000-00000-00000-00000",
    "svc_pat_AAAA",
    "00000000-0000-0000-0000-000000000000",
    "𝕏🚀",
    "\u202e\u200b",
    '{"features":["a\\u0000"]}',
    '{"features":["\\ud800"]}',
    '{"limits":{"maxSeats":1e400}}',
    '{"limits":{"maxSeats":-1}}',
    '{"limits":{"maxSeats":99999999999999999999}}',
    `{"limits":{"deep":${nested(100, "0")}}}`,
    '{"allOf":['.repeat(100) + "{}" + "]}".repeat(100),
    '{"$ref":"#"}',
    '{"type":"object","properties":{"a":{"$ref":"#/properties/a"}}}',
    '{"pattern":"(a+)+$"}',
    "{",
  ),
  codeUnitString,
  fc.string({ maxLength: 40 }),
  fc.constantFrom(65, 201, 1001, 2001, 10_001).map((n) => "x".repeat(n)),
);

const nastyValues: fc.Arbitrary<unknown> = fc.oneof(
  nastyStrings,
  fc.constantFrom(0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, 5e-324, true, false, null, [], {}),
  fc.integer(),
  fc.double(),
  fc.constantFrom(10, 65, 1000).map((depth) => JSON.parse(nested(depth, "1")) as unknown),
  fc.constant(JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{}}}') as unknown),
  fc.array(nastyStrings, { maxLength: 5 }),
  fc.dictionary(codeUnitString, nastyStrings, { maxKeys: 3 }),
);

/** A value that fits the schema's shape, so sibling fields pass and the bad one is the only problem. */
function plausible(
  schema: JsonSchema,
  document: OpenApiDocument,
  known: Known,
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, document);
  const options = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (options?.length) return fc.oneof(...options.map((o) => plausible(o, document, known, depth + 1)));
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  switch (s.type) {
    case "string":
      if (s.format === "uuid") return fc.oneof(fc.constantFrom(...known.ids), fc.uuid());
      if (s.format === "email") return fc.constantFrom("someone@example.com", "root@example.com");
      if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      return fc.oneof(
        fc.constantFrom(...known.licenseKeys, '{"features":["x"]}', "{}"),
        fc.string({ maxLength: 20 }),
      );
    case "integer":
      return fc.integer({ min: -5, max: 400 });
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > 3
        ? fc.constant([])
        : fc.array(plausible((s.items as JsonSchema) ?? {}, document, known, depth + 1), { maxLength: 3 });
    case "object":
      return depth > 3 ? fc.constant({}) : objectOf(s, document, known, depth + 1);
    default:
      return nastyValues;
  }
}

/** Each property: left out, plausible, or hostile; sometimes an unknown property beside them. */
function objectOf(schema: JsonSchema, document: OpenApiDocument, known: Known, depth: number) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  const fields = properties.map(([name, property]) =>
    fc
      .oneof(
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: plausible(property, document, known, depth) },
        { weight: 2, arbitrary: nastyValues },
      )
      .map((value) => [name, value] as const),
  );
  return fc
    .tuple(fc.tuple(...fields), fc.option(fc.tuple(codeUnitString, nastyValues), { freq: 5 }))
    .map(([entries, extra]) => {
      const value: Record<string, unknown> = {};
      for (const [name, v] of entries) if (v !== undefined) value[name] = v;
      if (extra) value[extra[0]] = extra[1];
      return value;
    });
}

/** Percent-encodes every UTF-16 unit it can; a lone surrogate becomes the bytes of its code point (CESU-8). */
const encodeUnits = (text: string) =>
  [...text]
    .map((ch) => {
      try {
        return encodeURIComponent(ch);
      } catch {
        return [...Buffer.from(ch, "utf16le")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
      }
    })
    .join("");

const badPathSegments = (known: Known) =>
  fc.oneof(
    fc.constantFrom("%ZZ", "%E0%A4%A", "%", "%00", "%ED%A0%80", "%C0%AF", "%FF", "..", "%2F", "a%2Fb", "%25"),
    fc.constantFrom(...known.ids, ...known.licenseKeys),
    fc.uuid(),
    nastyStrings.map(encodeUnits),
  );

const queryValue = fc.oneof(
  nastyStrings.map(encodeUnits),
  fc.constantFrom("%ZZ", "%00", "%ED%A0%80", "1", "-1", "0", "99999999999999999999", "1e3", "true"),
);

const rawBodies = fc.constantFrom(
  "",
  "{",
  "null",
  "[]",
  '"x"',
  "1",
  "{}",
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  `{"a":${nested(2000, "1")}}`,
  "\u0000",
  '{"__proto__":{"x":1}}',
  "\ufeff{}",
);

const contentTypes = fc.constantFrom(
  "application/json",
  "application/json",
  "application/json",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "text/plain",
  "application/x-www-form-urlencoded",
  "",
);

const signatureHeaders = (known: Known) =>
  fc.oneof(
    fc.constant({}),
    fc.record({
      "x-service-timestamp": fc.oneof(
        fc.constantFrom("", "abc", "-1", "1e3", "99999999999999"),
        fc.nat().map(String),
        fc.constant(String(Math.floor(Date.now() / 1000))),
      ),
      "x-service-signature": fc.oneof(
        fc.constantFrom(
          "",
          "v1=",
          "v2=zz",
          "v3=00",
          "v1=" + "0".repeat(64),
          "v2=" + "f".repeat(64) + ",v1=" + "0".repeat(64),
        ),
        fc.string({ maxLength: 80 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
      ),
    }),
    fc
      .constantFrom(...known.licenseKeys)
      .map(() => ({ "x-service-timestamp": "1", "x-service-signature": "v1=" + "a".repeat(64) })),
  );

const credentials = (known: Known) =>
  fc
    .constantFrom("none", "operator", "bearer", "bogus-cookie", "bogus-bearer")
    .map((kind): Record<string, string> => {
      if (kind === "operator") return known.cookie() ? { cookie: `service.auth=${known.cookie()}` } : {};
      if (kind === "bearer") return { authorization: `Bearer ${known.bearer}` };
      if (kind === "bogus-cookie") return { cookie: "service.auth=%ZZ; other=\u00ff" };
      if (kind === "bogus-bearer") return { authorization: "Bearer svc_pat_" + "A".repeat(43) };
      return {};
    });

/** One hostile request to `operation`. */
export function badRequest(
  operation: Operation,
  document: OpenApiDocument,
  known: Known,
): fc.Arbitrary<BadRequest> {
  const pathArb = fc.tuple(...operation.pathParams.map(() => badPathSegments(known))).map((segments) => {
    let i = 0;
    return operation.path.replace(/\{\w+\}/g, () => segments[i++]!);
  });
  const queryArb = fc
    .tuple(
      ...operation.query.map((p) =>
        fc
          .option(
            fc.oneof(
              plausible(p.schema, document, known).map((v) => encodeUnits(String(v))),
              queryValue,
            ),
            { freq: 3 },
          )
          .map((v) => (v === null ? "" : `${p.name}=${v}`)),
      ),
      fc.option(
        fc.constantFrom("x=1", "a[b]=c", "status=Active&status=Revoked", "page=1&page=2", "%ZZ=1", "q=%00"),
        { freq: 4 },
      ),
    )
    .map((parts) => parts.filter(Boolean).join("&"));
  const bodyArb: fc.Arbitrary<string | undefined> = operation.body
    ? fc.oneof(
        { weight: 6, arbitrary: plausible(operation.body, document, known).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: rawBodies },
      )
    : fc.option(rawBodies, { freq: 5 }).map((b) => b ?? undefined);
  const encodingArb = fc.constantFrom(
    "none",
    "none",
    "none",
    "none",
    "gzip-mismatch",
    "br-mismatch",
    "deflate-mismatch",
    "gzip",
    "zstd",
  );
  return fc
    .record({
      path: pathArb,
      query: queryArb,
      body: bodyArb,
      encoding: encodingArb,
      contentType: contentTypes,
      auth: credentials(known),
      signature: operation.path.startsWith("/client/") ? signatureHeaders(known) : fc.constant({}),
      extra: fc.oneof(
        { weight: 20, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.constantFrom<Record<string, string>>(
            { "x-request-id": "../../x" },
            { "idempotency-key": "\u00ff".repeat(300) },
            { "idempotency-key": "" },
            { "x-big": "a".repeat(20_000) },
            { origin: "https://evil.example" },
            { "x-forwarded-for": "not-an-ip" },
          ),
        },
      ),
    })
    .map(({ path, query, body, encoding, contentType, auth, signature, extra }) => {
      const headers: Record<string, string> = { ...auth, ...signature, ...extra };
      let payload: Uint8Array | string | undefined = body;
      if (body !== undefined) {
        if (contentType) headers["content-type"] = contentType;
        if (encoding.endsWith("-mismatch")) headers["content-encoding"] = encoding.replace("-mismatch", "");
        else if (encoding === "gzip") {
          headers["content-encoding"] = "gzip";
          payload = new Uint8Array(gzipSync(body));
        } else if (encoding === "zstd") headers["content-encoding"] = "zstd";
      }
      return {
        operation: operation.id,
        method: operation.method,
        url: `/api/v1${path}${query ? `?${query}` : ""}`,
        headers,
        body: operation.method === "GET" ? undefined : payload,
      };
    });
}
