import { SIGNATURE_HEADERS } from "@licensing/contracts";
import { verifyRequestSignature, type Deps } from "@licensing/core";
import type { CallRequest } from "../operation/call-request.ts";

/**
 * Checks the HMAC headers of a signed client request (heartbeat, deactivate, machines, the lease endpoints)
 * against the license key in its body. A request
 * vouched for by v1 alone is logged (once a minute per license), so an operator can tell when
 * CLIENT_SIGNATURE_MIN_VERSION=v2 would refuse nobody. The line names the activation, never the key.
 */
export function assertSignedBy(
  deps: Deps,
  request: CallRequest,
  licenseKey: string,
  activationId: string | null,
) {
  const version = verifyRequestSignature(
    licenseKey,
    {
      timestamp: request.header(SIGNATURE_HEADERS.timestamp),
      signature: request.header(SIGNATURE_HEADERS.signature),
    },
    request.signed,
    deps.clock.now(),
    deps.clientSignatures.minVersion,
  );
  if (version === "v1" && deps.clientSignatures.shouldReportV1(licenseKey)) {
    deps.logger.warn(
      { activationId, userAgent: request.info.userAgent, signature: "v1" },
      "client request signed with v1 only (replayable within the timestamp window); CLIENT_SIGNATURE_MIN_VERSION=v2 would refuse it",
    );
  }
}
