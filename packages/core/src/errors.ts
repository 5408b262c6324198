import { errorCatalogue, type ErrorCode, type ErrorKind } from "@licensing/contracts";

export interface AppErrorOptions {
  /** For a refusal that ends at a known time: the transports send it as `Retry-After`. */
  retryAfterSeconds?: number;
}

/** A domain failure with a machine code; the transports map `kind` to a status in one table. */
export class AppError extends Error {
  readonly kind: ErrorKind;
  readonly retryAfterSeconds: number | undefined;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.name = "AppError";
    this.kind = errorCatalogue[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const fail = (code: ErrorCode, message: string, options?: AppErrorOptions): never => {
  throw new AppError(code, message, options);
};
