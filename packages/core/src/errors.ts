import { errorCatalogue, type ErrorCode, type ErrorDetails, type ErrorKind } from "@licensing/contracts";

export interface AppErrorOptions<C extends ErrorCode = ErrorCode> {
  /** For a refusal that ends at a known time: the transports send it as `Retry-After`. */
  retryAfterSeconds?: number;
  /** What the code carries beside its message (`ErrorDetailsByCode`), written into the error body. */
  details?: ErrorDetails<C>;
}

/** A domain failure with a machine code; the transports map `kind` to a status in one table. */
export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly kind: ErrorKind;
  readonly retryAfterSeconds: number | undefined;
  readonly details: ErrorDetails<C> | undefined;
  constructor(
    readonly code: C,
    message: string,
    options: AppErrorOptions<C> = {},
  ) {
    super(message);
    this.name = "AppError";
    this.kind = errorCatalogue[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.details = options.details;
  }
}

export const fail = <C extends ErrorCode>(code: C, message: string, options?: AppErrorOptions<C>): never => {
  throw new AppError(code, message, options);
};
