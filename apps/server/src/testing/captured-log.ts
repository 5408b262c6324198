import { Writable } from "node:stream";
import { pino } from "pino";

/** A logger whose lines (JSON, one per entry) a test reads back: what an operator would see. */
export function capturedLog(level = "warn") {
  const lines: string[] = [];
  const logger = pino(
    { level },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
  return { logger, lines };
}
