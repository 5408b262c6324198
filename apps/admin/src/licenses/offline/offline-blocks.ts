import { z } from "zod";

/**
 * What the panel shows of a pasted air-gapped block before sending it (decision 0050). The format's one
 * definition is the protocol's (`packages/protocol/src/offline.ts`), which the app may not import: this
 * reads only what a person needs to see (which license, which machine), checks nothing (the HMAC needs the
 * license key, which only the server holds) and is held to the protocol's golden vectors by its test.
 */
export const BLOCK_LABELS = {
  request: "LICENSE ACTIVATION REQUEST",
  response: "LICENSE ACTIVATION",
  receipt: "LICENSE DEACTIVATION",
} as const;
export type BlockKind = keyof typeof BLOCK_LABELS;

const BlockVersion = z.literal(1);
const RequestFields = z.object({
  v: BlockVersion,
  lid: z.string(),
  fp: z.string(),
  cmp: z.record(z.string(), z.string()),
  mn: z.string().nullable(),
  iat: z.number(),
});
const ReceiptFields = z.object({ v: BlockVersion, lid: z.string(), aid: z.string(), iat: z.number() });

/** A request as the panel shows it; times are epoch ms. */
export interface RequestPreview {
  licenseId: string;
  fingerprint: string;
  componentKinds: string[];
  machineName: string | null;
  /** When the machine made it, by its own clock. */
  madeAt: number;
}

/** A receipt as the panel shows it; times are epoch ms. */
export interface ReceiptPreview {
  licenseId: string;
  activationId: string;
  /** When the machine deleted its certificate, by its own clock. */
  madeAt: number;
}

export type Peek<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The body of the one `kind` block in `text` (whitespace inside it ignored), or null. */
function body(kind: BlockKind, text: string): string | null {
  const begin = `-----BEGIN ${BLOCK_LABELS[kind]}-----`;
  const end = `-----END ${BLOCK_LABELS[kind]}-----`;
  const start = text.indexOf(begin);
  if (start < 0 || text.includes(begin, start + 1)) return null;
  const stop = text.indexOf(end, start);
  if (stop < 0) return null;
  return text.slice(start + begin.length, stop).replace(/\s+/g, "") || null;
}

/** Which of the three blocks `text` holds, for "this is a receipt, not a request". */
export function blockKind(text: string): BlockKind | null {
  return (Object.keys(BLOCK_LABELS) as BlockKind[]).find((kind) => body(kind, text) !== null) ?? null;
}

function firstSegmentJson(segment: string): unknown {
  if (!/^[A-Za-z0-9_-]+$/.test(segment)) return null;
  try {
    const binary = atob(segment.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}

const NAMES: Record<BlockKind, string> = {
  request: "an activation request",
  response: "an activation response",
  receipt: "a deactivation receipt",
};

function fields<T>(kind: BlockKind, text: string, schema: z.ZodType<T>): Peek<T> {
  const block = body(kind, text);
  if (block === null) {
    const other = blockKind(text);
    return {
      ok: false,
      problem: other
        ? `This is ${NAMES[other]}, not ${NAMES[kind]}.`
        : `No -----BEGIN ${BLOCK_LABELS[kind]}----- … -----END ${BLOCK_LABELS[kind]}----- block found: paste all of it, both lines included.`,
    };
  }
  const parsed = schema.safeParse(firstSegmentJson(block.split(".")[0]!));
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, problem: `The block cannot be read as ${NAMES[kind]}: was it cut or changed?` };
}

export function peekRequest(text: string): Peek<RequestPreview> {
  const read = fields("request", text, RequestFields);
  if (!read.ok) return read;
  const r = read.value;
  return {
    ok: true,
    value: {
      licenseId: r.lid,
      fingerprint: r.fp,
      componentKinds: Object.keys(r.cmp),
      machineName: r.mn,
      madeAt: r.iat * 1000,
    },
  };
}

export function peekReceipt(text: string): Peek<ReceiptPreview> {
  const read = fields("receipt", text, ReceiptFields);
  if (!read.ok) return read;
  const r = read.value;
  return { ok: true, value: { licenseId: r.lid, activationId: r.aid, madeAt: r.iat * 1000 } };
}
