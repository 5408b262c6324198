import { Alert } from "@mantine/core";
import { errorCode, errorMessage } from "../../lib/errors.ts";

/** What to do after each refusal of an offline activation or deactivation, after the server's own words. */
const NEXT_STEP: Record<string, string> = {
  "offline.request_invalid":
    "Nothing was stored. Make a new request on the machine and paste all of it, from its BEGIN line to its END line.",
  "offline.receipt_invalid":
    "No seat was freed. Paste the receipt exactly as the machine wrote it, on the page of the license it names.",
  "activation.seat_limit_reached":
    "Free a seat first: reset an activation below, or hand in another machine's deactivation receipt.",
  "activation.device_budget_exhausted":
    "Reset the device budget above, or wait until a device leaves its window.",
  "license.not_active": "Only an Active license can activate a machine.",
  "license.revoked": "The license was revoked: it can never activate a machine again.",
  "activation.fingerprint_mismatch":
    "Rebind the license to this machine's fingerprint first, if it is to move.",
  "activation.not_bound": "Rebind the license to this machine's fingerprint first.",
};

/** The API's message for a refused offline call, and what to do next. */
export function OfflineError({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  const code = errorCode(error);
  const next = code ? NEXT_STEP[code] : undefined;
  return (
    <Alert color="red" role="alert" title={title}>
      {errorMessage(error)}
      {code ? ` (${code})` : ""}. {next}
    </Alert>
  );
}
