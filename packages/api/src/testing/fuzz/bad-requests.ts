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
  // The issue's families first: text PostgreSQL cannot store.
  { weight: 2, arbitrary: fc.constantFrom("a\u0000b", "\u0000", "\ud800x", "x\udc00", "\udfff\ud800") },
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
  { weight: 4, arbitrary: nastyStrings },
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
  strict = false,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, document);
  const options = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (options?.length)
    return fc.oneof(...options.map((o) => plausible(o, document, known, depth + 1, strict)));
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  if (s.const !== undefined) return fc.constant(s.const);
  switch (s.type) {
    case "string":
      if (s.format === "uuid") return fc.oneof(fc.constantFrom(...known.ids), fc.uuid());
      if (s.format === "email") return fc.constantFrom("someone@example.com", "root@example.com");
      if (s.format === "date-time") return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (typeof s.pattern === "string") return fc.stringMatching(new RegExp(s.pattern));
      return fc.oneof(
        fc.constantFrom(...known.licenseKeys, '{"features":["x"]}', "{}"),
        fc.stringMatching(/^[a-z][a-z0-9-]{2,20}$/),
        fc.string({
          minLength: Math.min(Number(s.minLength ?? 1), 20),
          maxLength: Math.max(Math.min(Number(s.maxLength ?? 20), 20), 1),
        }),
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
        : fc.array(plausible((s.items as JsonSchema) ?? {}, document, known, depth + 1, strict), {
            maxLength: 3,
          });
    case "object":
      return depth > 3 ? fc.constant({}) : objectOf(s, document, known, depth + 1, strict);
    default:
      return nastyValues;
  }
}

/**
 * Half the time every property is plausible but one, which is hostile: such a request passes the schema
 * check of its siblings and reaches the deeper code. Otherwise each property is left out, plausible or
 * hostile at random, sometimes with an unknown property beside them.
 */
function objectOf(
  schema: JsonSchema,
  document: OpenApiDocument,
  known: Known,
  depth: number,
  strict = false,
) {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  if (strict) {
    const required = new Set((schema.required ?? []) as string[]);
    return fc
      .tuple(
        ...properties.map(([name, property]) =>
          (required.has(name)
            ? plausible(property, document, known, depth, true)
            : fc.option(plausible(property, document, known, depth, true), { nil: undefined })
          ).map((value) => [name, value] as const),
        ),
      )
      .map((entries) => {
        const value: Record<string, unknown> = {};
        for (const [name, v] of entries) if (v !== undefined) value[name] = v;
        return value;
      });
  }
  const build = (entries: readonly (readonly [string, unknown])[], extra: [string, unknown] | null) => {
    const value: Record<string, unknown> = {};
    for (const [name, v] of entries) if (v !== undefined) value[name] = v;
    if (extra) value[extra[0]] = extra[1];
    return value;
  };
  const mixed = fc
    .tuple(
      fc.tuple(
        ...properties.map(([name, property]) =>
          fc
            .oneof(
              { weight: 1, arbitrary: fc.constant(undefined) },
              { weight: 3, arbitrary: plausible(property, document, known, depth) },
              { weight: 2, arbitrary: nastyValues },
            )
            .map((value) => [name, value] as const),
        ),
      ),
      fc.option(fc.tuple(codeUnitString, nastyValues), { freq: 5 }),
    )
    .map(([entries, extra]) => build(entries, extra));
  if (properties.length === 0) return mixed;
  const oneBad = fc
    .nat({ max: properties.length - 1 })
    .chain((bad) =>
      fc
        .tuple(
          ...properties.map(([name, property], i) =>
            (i === bad ? nastyValues : plausible(property, document, known, depth)).map(
              (value) => [name, value] as const,
            ),
          ),
        )
        .map((entries) => build(entries, null)),
    );
  return fc.oneof(oneBad, mixed);
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
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "%ZZ",
        "%E0%A4%A",
        "%",
        "%00",
        "%ED%A0%80",
        "%C0%AF",
        "%FF",
        "..",
        "%2F",
        "%25",
      ),
    },
    { weight: 3, arbitrary: fc.constantFrom(...known.ids, ...known.licenseKeys) },
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
    .constantFrom(
      "none",
      "operator",
      "operator",
      "operator",
      "bearer",
      "bearer",
      "bogus-cookie",
      "bogus-bearer",
    )
    .map((kind): Record<string, string> => {
      if (kind === "operator") return known.cookie() ? { cookie: `service.auth=${known.cookie()}` } : {};
      if (kind === "bearer") return { authorization: `Bearer ${known.bearer}` };
      if (kind === "bogus-cookie") return { cookie: "service.auth=%ZZ; other=\u00ff" };
      if (kind === "bogus-bearer") return { authorization: "Bearer svc_pat_" + "A".repeat(43) };
      return {};
    });

/** The issue's text families, slipped into an otherwise well-formed request. */
const unstorableText = fc.constantFrom("\u0000", "\ud800", "\udc00", "a\u0000");

/** Puts `text` into the `pick`-th string leaf of `value` (keys included), if it has one. */
function inject(value: unknown, pick: number, text: string): unknown {
  const leaves: ((v: string) => void)[] = [];
  const visit = (node: unknown, set: (v: unknown) => void) => {
    if (typeof node === "string") leaves.push((t) => set(node + t));
    else if (Array.isArray(node)) node.forEach((child, i) => visit(child, (v) => (node[i] = v)));
    else if (node && typeof node === "object") {
      const record = node as Record<string, unknown>;
      for (const [key, child] of Object.entries(record)) {
        visit(child, (v) => (record[key] = v));
        leaves.push((t) => {
          record[key + t] = record[key];
          delete record[key];
        });
      }
    }
  };
  let root = value;
  visit(value, (v) => (root = v));
  if (leaves.length) leaves[pick % leaves.length]!(text);
  return root;
}

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
              {
                weight: 2,
                arbitrary: plausible(p.schema, document, known).map((v) => encodeUnits(String(v))),
              },
              { weight: 1, arbitrary: queryValue },
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
        { weight: 4, arbitrary: plausible(operation.body, document, known).map((v) => JSON.stringify(v)) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(plausible(operation.body, document, known, 0, true), fc.nat(), unstorableText)
            .map(([v, pick, text]) => JSON.stringify(inject(v, pick, text))),
        },
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
