import type { RouterInputs } from "@licensing/api";
import { BULK_MAX_ITEMS } from "@licensing/contracts";
import { useState } from "react";
import { useAction } from "../../lib/action.tsx";
import { errorCode, errorMessage } from "../../lib/errors.ts";
import { useIdempotent } from "../../lib/idempotency.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { chunks, outcomes, type BulkOutcome, type BulkResult, type BulkRow } from "./bulk-rows.ts";

/** What every license of the batch shares: the template and the terms. */
export type BulkTerms = Omit<RouterInputs["licenses"]["bulkIssue"], "items">;

/**
 * Sends the ready rows in calls of at most BULK_MAX_ITEMS, one after the other, counting the progress.
 * A failing item does not stop the batch (the server reports it); a failing call (the terms are refused,
 * the network is gone) stops it, and the rows not sent say why. Each call carries an Idempotency-Key:
 * sending the same rows again after a lost answer gets the licenses the first attempt issued.
 */
export function useBulkIssue() {
  const trpc = useTRPC();
  const call = useAction(useIdempotent(useTRPCClient().licenses.bulkIssue.mutate), {
    invalidate: [trpc.licenses.pathKey()],
  });
  const [progress, setProgress] = useState<{ sent: number; total: number } | null>(null);
  const [result, setResult] = useState<{ outcomes: BulkOutcome[]; error: unknown } | null>(null);

  const send = async (terms: BulkTerms, rows: BulkRow[]) => {
    const ready = rows.filter((r) => !r.problem && r.companyId);
    const results: BulkResult[] = [];
    let failure: unknown = null;
    setResult(null);
    setProgress({ sent: 0, total: ready.length });
    for (const chunk of chunks(ready, BULK_MAX_ITEMS)) {
      try {
        const response = await call.mutateAsync({
          ...terms,
          items: chunk.map((r) => ({ companyId: r.companyId!, config: r.config })),
        });
        results.push(...response.results);
        setProgress({ sent: results.length, total: ready.length });
      } catch (error) {
        failure = error;
        break;
      }
    }
    const stopped = failure ? { code: errorCode(failure), message: errorMessage(failure) } : null;
    setResult({ outcomes: outcomes(rows, results, stopped), error: failure });
    setProgress(null);
  };

  return { send, progress, result, reset: () => setResult(null) };
}
