import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { ErrorCode } from "@licensing/contracts";
import { errorCatalogue } from "@licensing/contracts";
import type { Logger } from "pino";
import { errorKindMapping } from "../errors.ts";

const reasons: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
};

function describe(code: string | undefined): [ErrorCode, string] {
  if (code === "HPE_HEADER_OVERFLOW")
    return ["request.header_too_large", "The request line and headers are larger than the server accepts"];
  if (code === "ERR_HTTP_REQUEST_TIMEOUT" || code === "ERR_HTTP_HEADERS_TIMEOUT")
    return ["request.timeout", "The request was not received in time"];
  return ["request.malformed_http", "The request is not well-formed HTTP/1.1"];
}

/**
 * Errors Node's HTTP parser raises before Express sees the request (a head over the size limit, a
 * malformed request line or header) are answered in the spec's error shape, not with an empty body.
 * Nothing of the request is logged: its head may hold credentials.
 */
export function answerClientErrors(server: Server, logger: Logger) {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [code, message] = describe(error.code);
    const status = errorKindMapping[errorCatalogue[code]].status;
    const body = JSON.stringify({ code, message, status });
    logger.warn({ code, parserError: error.code }, "rejected a request the HTTP parser refused");
    socket.end(
      `HTTP/1.1 ${status} ${reasons[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
