import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { requestLogMixin } from "./logging.ts";

/**
 * Secrets never reach the log (issue 9). Three layers, each catching what the one before cannot:
 * 1. pino `redact`: any field named like a secret, at any of the first three levels;
 * 2. the `err` serializer: a failed query is logged with its SQL text, never its bound values;
 * 3. a scrubber over every finished line: secrets with a recognisable shape (license keys, access
 *    tokens, signed tokens and markers, bearer and cookie values, request signatures), wherever they hide.
 * The documented exceptions carry `containsSecret` (see docs/security.md): mails logged without SMTP_URL
 * and the generated bootstrap password.
 */

const SECRET_FIELDS = [
  "password",
  "currentPassword",
  "newPassword",
  "licenseKey",
  "token",
  "heartbeatToken",
  "secret",
  "totpSecret",
  "recoveryCodes",
  "ticket",
  "sessionId",
  "authorization",
  "cookie",
  "set-cookie",
  "x-service-signature",
];
const redactPaths = SECRET_FIELDS.flatMap((f) => {
  const key = /^[\w]+$/.test(f) ? f : `["${f}"]`;
  const dotted = (prefix: string) => (key.startsWith("[") ? `${prefix}${key}` : `${prefix}.${key}`);
  return [key, dotted("*"), dotted("*.*")];
});

const SHAPED_SECRETS: [RegExp, string][] = [
  [/\bSVC(?:-?[0-9A-Z]{5}){5}\b/gi, "SVC-[redacted]"],
  [/\bsvc_pat_[\w-]+/g, "svc_pat_[redacted]"],
  // JWS compact tokens and offline markers: base64url of a JSON object, a dot, more base64url.
  [/\beyJ[\w-]*\.[\w-]+(?:\.[\w-]+)?/g, "[redacted signed token]"],
  [/\b(Bearer)\s+[^\s",]+/gi, "$1 [redacted]"],
  [/\b(service\.auth=)[^;\s",]+/g, "$1[redacted]"],
  [/\b(v[12]=)[0-9a-f]{64}\b/gi, "$1[redacted]"],
];

/** Masks every secret with a recognisable shape in a piece of text. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SHAPED_SECRETS) out = out.replace(pattern, replacement);
  return out;
}

// Drizzle's message is "Failed query: <sql>\nparams: <values>"; the values may span lines.
const PARAMS_IN_MESSAGE = /\nparams: [\s\S]*?(?=\n {4}at |$)/g;
const VALUE_FIELDS = new Set(["params", "parameters", "detail", "where", "internalQuery"]);

/** pino's error serializer, without bound values: they carry license keys, tokens and hashes. */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  const scrub = (value: unknown, depth: number): unknown => {
    if (depth > 5 || typeof value !== "object" || value === null) {
      return typeof value === "string" ? value.replace(PARAMS_IN_MESSAGE, "") : value;
    }
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (!VALUE_FIELDS.has(key)) out[key] = scrub(child, depth + 1);
    }
    return out;
  };
  return scrub(serialized, 0);
}

export interface LoggerSettings {
  level: string;
  destination?: DestinationStream | undefined;
}

/** The service's logger: request ids on every line, and no secrets. The server and the tests use it. */
export function createLogger({ level, destination }: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level,
    mixin: requestLogMixin,
    redact: { paths: redactPaths, censor: "[redacted]" },
    serializers: { err: serializeError },
    hooks: { streamWrite: scrubSecrets },
  };
  return destination ? pino(options, destination) : pino(options);
}
