import { TRPC_MAX_BATCH_SIZE } from "@licensing/contracts";
import fc from "fast-check";

/**
 * fast-check arbitraries of tRPC requests over HTTP (decision 0036): batches of random procedure names
 * (auth.* among them, and near misses: another case, a prefix, unknown names, broken percent-encoding),
 * sized mostly around and past TRPC_MAX_BATCH_SIZE, by GET and POST, with inputs that are sometimes
 * plausible and often not.
 */

export interface TrpcRequest {
  /** The procedure names as generated; a `/` or an encoded `,` in one changes what the path holds. */
  names: string[];
  /** The calls tRPC reads from the path (its last segment, decoded, split), or null when it cannot decode. */
  calls: string[] | null;
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

// Procedures that check the operator's password or end its session: sent without the cookie, so the
// run never locks the operator out of its own account nor signs it out.
const sessionEnding = /^auth\.(logout|changePassword|twoFactor\.)/;

const hostileNames = fc.constantFrom(
  "",
  "auth",
  "auth.",
  ".login",
  "auth..login",
  "auth.login.x",
  "__proto__",
  "constructor",
  "toString",
  "%",
  "%E0%A4%A",
  "auth%2Elogin",
  "a%2Cb",
  "auth.login%00",
  "x/auth.login",
  "..%2Fauth.me",
);

export interface Procedure {
  path: string;
  type: "query" | "mutation" | "subscription";
}

/**
 * A name, mostly of a procedure the method can call (tRPC refuses a batch that mixes queries and
 * mutations, and a mutation by GET), so most batches run.
 */
function procedureName(procedures: readonly Procedure[], method: "GET" | "POST"): fc.Arbitrary<string> {
  const callable = procedures.filter((p) => p.type === (method === "GET" ? "query" : "mutation"));
  const real = fc.constantFrom(...procedures.map((p) => p.path));
  const auth = callable.filter((p) => p.path.startsWith("auth.")).map((p) => p.path);
  return fc.oneof(
    { weight: 30, arbitrary: fc.constantFrom(...callable.map((p) => p.path)) },
    { weight: 10, arbitrary: fc.constantFrom(...auth) },
    real,
    real.map((p) => p.toUpperCase()),
    real.map((p) => p[0]!.toUpperCase() + p.slice(1)),
    hostileNames,
    fc.stringMatching(/^[A-Za-z.]{1,20}$/),
  );
}

const plausibleInput = fc.oneof(
  fc.constant({ email: "someone@example.com", password: "wrong-password" }),
  fc.constant({ email: "someone@example.com" }),
  fc.constant({ token: "x".repeat(43), newPassword: "new-password-1" }),
  fc.constant({ ticket: "x".repeat(43), code: "000000" }),
  fc.constant({ id: "00000000-0000-0000-0000-000000000000" }),
  fc.constant({ page: 1, pageSize: 200 }),
  fc.constant({}),
);

/** One call's input, as superjson sends it (`{json, meta?}`), or something that is not. */
const callInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: plausibleInput.map((json) => ({ json })) },
  fc.constant(undefined),
  fc.anything({ maxDepth: 3, maxKeys: 4 }).map((json) => ({ json })),
  fc.anything({ maxDepth: 2, maxKeys: 3 }),
  fc.record({ json: plausibleInput, meta: fc.anything({ maxDepth: 2, maxKeys: 3 }) }),
  fc.constant({ json: { email: "a\u0000b@example.com", password: "\ud800" } }),
);

const batchSize = fc.oneof(fc.integer({ min: 1, max: 5 }), {
  weight: 2,
  arbitrary: fc.integer({ min: TRPC_MAX_BATCH_SIZE - 2, max: TRPC_MAX_BATCH_SIZE + 4 }),
});

/** Either the batch's inputs keyed by index, as the client sends them, or a malformed whole. */
function inputsText(size: number): fc.Arbitrary<string | undefined> {
  const keyed = fc
    .array(callInput, { minLength: size, maxLength: size })
    .map((inputs) => JSON.stringify(Object.fromEntries(inputs.map((input, i) => [i, input]))));
  return fc.oneof(
    { weight: 6, arbitrary: keyed },
    fc.constant(undefined),
    fc.constantFrom("[]", "null", '"x"', "{", '{"0":', "1e400"),
  );
}

export function trpcRequest(procedures: readonly Procedure[], cookie: () => string | undefined) {
  return fc.tuple(batchSize, fc.constantFrom("GET" as const, "POST" as const)).chain(([size, method]) =>
    fc
      .record({
        names: fc.array(procedureName(procedures, method), { minLength: size, maxLength: size }),
        method: fc.constant(method),
        batchFlag: fc.constantFrom("?batch=1", "?batch=1", "?batch=1", "", "?batch=0", "?batch=1&batch=0"),
        inputs: inputsText(size),
        withCookie: fc.boolean(),
      })
      .map(({ names, method, batchFlag, inputs, withCookie }): TrpcRequest => {
        const query =
          method === "GET" && inputs !== undefined
            ? `${batchFlag || "?"}${batchFlag ? "&" : ""}input=${encodeURIComponent(inputs)}`
            : batchFlag;
        const path = names.join(",");
        const calls = decodedOrNull(path.slice(path.lastIndexOf("/") + 1))?.split(",") ?? null;
        const sendCookie = withCookie && cookie() && !(calls ?? names).some((n) => sessionEnding.test(n));
        return {
          names,
          calls,
          method,
          url: `/trpc/${path}${query}`,
          headers: {
            ...(method === "POST" ? { "content-type": "application/json" } : {}),
            ...(sendCookie ? { cookie: `service.auth=${cookie()}` } : {}),
          },
          body: method === "POST" ? inputs : undefined,
        };
      }),
  );
}

function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
