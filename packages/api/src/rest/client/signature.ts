import { SIGNATURE_HEADERS } from "@licensing/contracts";
import { verifyRequestSignature, type Deps } from "@licensing/core";
import type { Request } from "express";
import { rawBodyOf } from "../../http/raw-body.ts";

/** Checks the HMAC headers of a heartbeat or deactivate against the license key in its body. */
export function assertSignedBy(deps: Deps, req: Request, licenseKey: string) {
  verifyRequestSignature(
    licenseKey,
    { timestamp: req.get(SIGNATURE_HEADERS.timestamp), signature: req.get(SIGNATURE_HEADERS.signature) },
    { method: req.method, path: req.originalUrl.split("?")[0]!, body: rawBodyOf(req) },
    deps.clock.now(),
  );
}
