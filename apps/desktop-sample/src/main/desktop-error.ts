import type { ActionResult, DesktopError } from "../shared/bridge.ts";

/** Every failure the app shows the user: a machine code and one sentence. */
export type DesktopErrorCode =
  | "input.invalid"
  | "license.file_missing"
  | "license.file_unreadable"
  | "license.signature_invalid"
  | "license.expired"
  | "license.key_mismatch"
  | "license.not_installed"
  | "download.failed"
  | "public_key.unknown"
  | "public_key.unavailable"
  | "server.unreachable"
  | "seat.unknown"
  | "seat.not_taken"
  | "qa.disabled"
  | "scenario.unavailable"
  | "scenario.failed";

export class DesktopActionError extends Error {
  constructor(
    readonly code: DesktopErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "DesktopActionError";
  }

  toJSON(): DesktopError {
    return { code: this.code, message: this.message };
  }
}

/** Runs an action for the renderer: a typed failure becomes its `{code, message}`, anything else a generic one. */
export async function asResult(
  action: () => Promise<unknown>,
  log?: (error: unknown) => void,
): Promise<ActionResult> {
  try {
    await action();
    return { ok: true };
  } catch (error) {
    if (error instanceof DesktopActionError) return { ok: false, error: error.toJSON() };
    log?.(error);
    return { ok: false, error: { code: "internal", message: "Something went wrong; see the app's log." } };
  }
}
