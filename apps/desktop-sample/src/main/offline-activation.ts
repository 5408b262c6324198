import { readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { OfflineActivationError, writeFileAtomic, type CertificateProblem } from "@licensing/client";
import type { OfflineBlock } from "../shared/bridge.ts";
import { DesktopActionError } from "./desktop-error.ts";

/**
 * The main process's side of activation without internet (decision 0050), free of Electron: the words for
 * a refused response, the QR code as an image URL, the response file, and the receipt kept on disk until
 * it has been handed in. The SDK does the rest (`createOfflineActivationRequest`, `applyOfflineActivation`,
 * `deactivateOffline`).
 */

/** What the user is told when the SDK refuses a response, by its reason. */
const REFUSALS: Record<CertificateProblem, string> = {
  malformed: "This is not an activation response: paste all of it, from its BEGIN line to its END line",
  "signature-invalid":
    "This response was not made for Acme Editor: it was changed on the way, or made by another product's licensing server",
  "other-license": "This response is for another license: ask your vendor for the one made for this license",
  "other-machine": "This response was made for another computer: give your vendor the request shown here",
  "other-request":
    "This response answers an older request: give your vendor the request shown now (only the answer to the newest one works)",
  expired: "This response has already expired: ask your vendor for a new one",
};

/** An `applyOfflineActivation` refusal as the renderer shows it; anything else is rethrown. */
export function refusedResponse(error: unknown): never {
  if (error instanceof OfflineActivationError) {
    throw new DesktopActionError("offline.response_refused", `${REFUSALS[error.reason]} (${error.reason})`);
  }
  throw error;
}

/**
 * The SDK's SVG QR code as an image URL: the renderer shows it in an `<img>`, where an SVG runs no script
 * and loads nothing, so the markup never enters the page (the CSP allows `img-src data:`).
 */
export const qrImageUrl = (svg: string) =>
  `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;

// A response is about 700 characters; the API accepts pasted blocks up to 16,384. A larger file is not one.
export const MAX_BLOCK_CHARS = 16_384;

/** The text of a response file the user chose. */
export async function readResponseFile(path: string): Promise<string> {
  const size = await stat(path).then(
    (info) => (info.isFile() ? info.size : null),
    () => null,
  );
  if (size === null) throw new DesktopActionError("offline.file_unreadable", `There is no file at ${path}`);
  if (size > MAX_BLOCK_CHARS * 4) {
    throw new DesktopActionError(
      "offline.file_unreadable",
      "This file is too large to be an activation response",
    );
  }
  return readFile(path, "utf8");
}

/** What the save dialog offers as the file's name. */
export const OFFLINE_FILE_NAMES: Record<OfflineBlock, string> = {
  request: "acme-editor-activation-request.txt",
  receipt: "acme-editor-deactivation-receipt.txt",
};

/** The receipt of the last offline deactivation, on disk beside the license until it was handed in. */
export function receiptStore(dataDir: string) {
  const path = join(dataDir, "offline-receipt.txt");
  return {
    read: () => readFile(path, "utf8").catch(() => null),
    write: (receipt: string) => writeFileAtomic(path, receipt),
    forget: () => rm(path, { force: true }),
  };
}
