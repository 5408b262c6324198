import { decodeBase64urlStrict, decodeJsonSegment, encodeBase64url } from "./base64url.ts";
import { COMPONENT_KIND_PATTERN, MAX_COMPONENTS, type FingerprintComponent } from "./components.ts";
import { isUnixSeconds, isUuid } from "./signed-document.ts";
import { fromHex, toHex } from "./hex.ts";

/**
 * Air-gapped activation (issue 24, decision 0050): three armored text blocks a person carries between a
 * machine without network and the panel. No Node built-ins and no zod: the SDK's core bundles this.
 *
 * - request (machine → panel): `base64url(JSON).base64url(HMAC-SHA256)`, the HMAC keyed with the license
 *   key over `offlineMacInput(label, first segment)`: it proves the key without carrying it;
 * - response (panel → machine): a JWS compact (EdDSA) whose header says `typ: license-activation+jwt`, so
 *   it never passes for a license token (`typ: JWT`) nor a token for it;
 * - receipt (machine → panel): like the request, for the deactivation.
 */
export const OFFLINE_LABELS = {
  request: "LICENSE ACTIVATION REQUEST",
  response: "LICENSE ACTIVATION",
  receipt: "LICENSE DEACTIVATION",
} as const;
export type OfflineLabel = (typeof OFFLINE_LABELS)[keyof typeof OFFLINE_LABELS];

/** A request fits one QR code: at most this many characters, armor and line breaks included. */
export const MAX_OFFLINE_REQUEST_CHARS = 1200;
/** The `typ` of an offline activation response's JWS header. */
export const OFFLINE_ACTIVATION_TYP = "license-activation+jwt";
/** A nonce: 16 to 48 random bytes in base64url (the SDK makes 16: 22 characters). */
export const OFFLINE_NONCE_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;
const VERSION = 1;
const LINE = 64;

/** The block: BEGIN line, the body in lines of 64 characters, END line, a final line break. */
export function armor(label: OfflineLabel, body: string): string {
  const lines: string[] = [];
  for (let i = 0; i < body.length; i += LINE) lines.push(body.slice(i, i + LINE));
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/**
 * The body of the one `label` block in `text` (text around it, as in a mail, is ignored; so is any
 * whitespace inside it, as a pasted or scanned block has), or null when there is none or more than one.
 */
export function unarmor(label: OfflineLabel, text: string): string | null {
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const start = text.indexOf(begin);
  if (start < 0 || text.includes(begin, start + 1)) return null;
  const stop = text.indexOf(end, start);
  if (stop < 0) return null;
  return text.slice(start + begin.length, stop).replace(/\s+/g, "") || null;
}

/** What the HMAC of a request or a receipt covers: the block's label, a line break, the first segment. */
export const offlineMacInput = (label: OfflineLabel, segment: string) => `${label}\n${segment}`;

/** An activation request as the machine writes it; times are unix seconds. */
export interface OfflineActivationRequest {
  /** License id (the token's `lid`). */
  lid: string;
  /** The machine's hwFingerprint. */
  fp: string;
  components: FingerprintComponent[];
  machineName: string | null;
  nonce: string;
  /** When the machine made it, by its own clock. */
  iat: number;
}

/** A deactivation receipt: the certificate's license, activation and nonce, and when it was deleted. */
export interface OfflineDeactivationReceipt {
  lid: string;
  aid: string;
  nonce: string;
  iat: number;
}

/** The claims of an offline activation response (the machine's certificate); times are unix seconds. */
export interface OfflineActivationClaims {
  lid: string;
  aid: string;
  fp: string;
  /** The request's nonce. */
  nonce: string;
  iat: number;
  /** Until when the certificate activates the machine: at most the license's expiry. */
  exp: number;
}

/** The JWS header of a response. */
export interface OfflineActivationHeader {
  alg: "EdDSA";
  typ: typeof OFFLINE_ACTIVATION_TYP;
  kid: string;
}

/**
 * The request's first segment, members in a fixed order. Component hashes travel as base64url (43
 * characters, not 64 hex) and the components as an object, so seven of them fit a QR code.
 */
export const encodeOfflineRequestBody = (r: OfflineActivationRequest): string =>
  encodeBase64url(
    JSON.stringify({
      v: VERSION,
      lid: r.lid,
      fp: r.fp,
      cmp: Object.fromEntries(r.components.map((c) => [c.kind, encodeBase64url(fromHex(c.hash)!)])),
      mn: r.machineName,
      nonce: r.nonce,
      iat: r.iat,
    }),
  );

export const encodeOfflineReceiptBody = (r: OfflineDeactivationReceipt): string =>
  encodeBase64url(JSON.stringify({ v: VERSION, lid: r.lid, aid: r.aid, nonce: r.nonce, iat: r.iat }));

/** The armored request or receipt from its first segment and the HMAC's 32 bytes. */
export const formatMacBlock = (label: OfflineLabel, segment: string, mac: Uint8Array) =>
  armor(label, `${segment}.${encodeBase64url(mac)}`);

/** The response's signing input, members in a fixed order. */
export function encodeOfflineResponseSigningInput(keyId: string, c: OfflineActivationClaims): string {
  const header: OfflineActivationHeader = { alg: "EdDSA", typ: OFFLINE_ACTIVATION_TYP, kid: keyId };
  const claims = { lid: c.lid, aid: c.aid, fp: c.fp, nonce: c.nonce, iat: c.iat, exp: c.exp };
  return `${encodeBase64url(JSON.stringify(header))}.${encodeBase64url(JSON.stringify(claims))}`;
}

export const formatOfflineResponse = (signingInput: string, signature: Uint8Array) =>
  armor(OFFLINE_LABELS.response, `${signingInput}.${encodeBase64url(signature)}`);

/** Why an offline block does not parse. */
export type OfflineParseFailure =
  /** No block with the expected label (or more than one). */
  | "not-armored"
  /** The body is not the format's segments in canonical base64url. */
  | "malformed"
  /** The segments decode, but not to the format's members. */
  | "invalid-payload";

type Parsed<T> = ({ ok: true } & T) | { ok: false; reason: OfflineParseFailure };

type Json = Record<string, unknown>;
const isText = (v: unknown, max: number): v is string =>
  typeof v === "string" && v.length >= 1 && v.length <= max;
const isNonce = (v: unknown): v is string => typeof v === "string" && OFFLINE_NONCE_PATTERN.test(v);

/** The body's `segment.mac` of a request or receipt, decoded but not checked. */
function macBlock(
  label: OfflineLabel,
  text: string,
): Parsed<{ raw: Json; macInput: string; mac: Uint8Array }> {
  const body = unarmor(label, text);
  if (!body) return { ok: false, reason: "not-armored" };
  const parts = body.split(".");
  const raw = parts.length === 2 ? decodeJsonSegment(parts[0]!) : null;
  const mac = parts.length === 2 ? decodeBase64urlStrict(parts[1]!) : null;
  if (!raw || !mac || mac.length !== 32) return { ok: false, reason: "malformed" };
  if (raw.v !== VERSION) return { ok: false, reason: "invalid-payload" };
  return { ok: true, raw, macInput: offlineMacInput(label, parts[0]!), mac };
}

/** The components of a request's `cmp`, or null when any is not a well-formed kind and 32-byte hash. */
function components(cmp: unknown): FingerprintComponent[] | null {
  if (typeof cmp !== "object" || cmp === null || Array.isArray(cmp)) return null;
  const entries = Object.entries(cmp);
  if (entries.length > MAX_COMPONENTS) return null;
  const out: FingerprintComponent[] = [];
  for (const [kind, hash] of entries) {
    const bytes = typeof hash === "string" ? decodeBase64urlStrict(hash) : null;
    if (!COMPONENT_KIND_PATTERN.test(kind) || bytes?.length !== 32) return null;
    out.push({ kind, hash: toHex(bytes) });
  }
  return out;
}

/**
 * Splits and decodes an armored activation request without checking its HMAC (the server does, with the
 * license's key): `macInput` is what the HMAC must cover. Other members are ignored.
 */
export function parseOfflineRequest(
  text: string,
): Parsed<{ request: OfflineActivationRequest; macInput: string; mac: Uint8Array }> {
  const block = macBlock(OFFLINE_LABELS.request, text);
  if (!block.ok) return block;
  const { raw } = block;
  const cmp = components(raw.cmp);
  const valid =
    isUuid(raw.lid) &&
    isText(raw.fp, 256) &&
    cmp !== null &&
    (raw.mn === null || isText(raw.mn, 200)) &&
    isNonce(raw.nonce) &&
    isUnixSeconds(raw.iat);
  if (!valid) return { ok: false, reason: "invalid-payload" };
  const request: OfflineActivationRequest = {
    lid: raw.lid as string,
    fp: raw.fp as string,
    components: cmp,
    machineName: raw.mn as string | null,
    nonce: raw.nonce as string,
    iat: raw.iat as number,
  };
  return { ok: true, request, macInput: block.macInput, mac: block.mac };
}

/** Splits and decodes an armored deactivation receipt without checking its HMAC. */
export function parseOfflineReceipt(
  text: string,
): Parsed<{ receipt: OfflineDeactivationReceipt; macInput: string; mac: Uint8Array }> {
  const block = macBlock(OFFLINE_LABELS.receipt, text);
  if (!block.ok) return block;
  const { raw } = block;
  if (!(isUuid(raw.lid) && isUuid(raw.aid) && isNonce(raw.nonce) && isUnixSeconds(raw.iat))) {
    return { ok: false, reason: "invalid-payload" };
  }
  const receipt = {
    lid: raw.lid,
    aid: raw.aid,
    nonce: raw.nonce,
    iat: raw.iat,
  } as OfflineDeactivationReceipt;
  return { ok: true, receipt, macInput: block.macInput, mac: block.mac };
}

/**
 * Splits and decodes an armored activation response without verifying it: the caller checks `signature`
 * over `signingInput` with its Ed25519 key. The header must say EdDSA and this format's `typ`, with no `crit`.
 */
export function parseOfflineResponse(text: string): Parsed<{
  header: OfflineActivationHeader;
  claims: OfflineActivationClaims;
  signingInput: string;
  signature: Uint8Array;
}> {
  const body = unarmor(OFFLINE_LABELS.response, text);
  if (!body) return { ok: false, reason: "not-armored" };
  const parts = body.split(".");
  const [h, c, s] = parts as [string, string, string];
  const header = parts.length === 3 ? decodeJsonSegment(h) : null;
  const raw = parts.length === 3 ? decodeJsonSegment(c) : null;
  const signature = parts.length === 3 ? decodeBase64urlStrict(s) : null;
  if (!header || !raw || signature?.length !== 64) return { ok: false, reason: "malformed" };
  const valid =
    header.alg === "EdDSA" &&
    header.typ === OFFLINE_ACTIVATION_TYP &&
    isUuid(header.kid) &&
    !("crit" in header) &&
    isUuid(raw.lid) &&
    isUuid(raw.aid) &&
    isText(raw.fp, 256) &&
    isNonce(raw.nonce) &&
    isUnixSeconds(raw.iat) &&
    isUnixSeconds(raw.exp);
  if (!valid) return { ok: false, reason: "invalid-payload" };
  const claims = {
    lid: raw.lid,
    aid: raw.aid,
    fp: raw.fp,
    nonce: raw.nonce,
    iat: raw.iat,
    exp: raw.exp,
  } as OfflineActivationClaims;
  return {
    ok: true,
    header: { alg: "EdDSA", typ: OFFLINE_ACTIVATION_TYP, kid: header.kid as string },
    claims,
    signingInput: `${h}.${c}`,
    signature,
  };
}
