import { errorCatalogue, type ErrorCode, type ErrorKind } from "@licensing/contracts";

/** A domain failure with a machine code; the transports map `kind` to a status in one table. */
export class AppError extends Error {
  readonly kind: ErrorKind;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "AppError";
    this.kind = errorCatalogue[code];
  }
}

export const fail = (code: ErrorCode, message: string): never => {
  throw new AppError(code, message);
};
