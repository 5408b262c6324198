import type { IncomingMessage } from "node:http";
import type { Request } from "express";

/** express.json's `verify` hook: keeps the exact bytes, which a v2 request signature covers. */
export const keepRawBody = (req: IncomingMessage, _res: unknown, buffer: Buffer) => {
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = buffer;
};

export const rawBodyOf = (req: Request): Buffer =>
  (req as Request & { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
