import { BULK_MAX_ITEMS, type BulkIssueRequest } from "@licensing/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";
import { chunks, outcomes, type BulkOutcome, type BulkResult, type BulkRow } from "./bulk-rows.ts";

export type BulkTerms = Omit<BulkIssueRequest, "items">;

/**
 * Sends the ready rows in calls of at most BULK_MAX_ITEMS, one after the other, counting the progress.
 * A failing item does not stop the batch (the server reports it); a failing call (the terms are refused,
 * the network is gone) stops it, and the rows not sent say why.
 */
export function useBulkIssue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const call = useMutation(trpc.licenses.bulkIssue.mutationOptions());
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
    if (results.length > 0) await queryClient.invalidateQueries({ queryKey: trpc.licenses.pathKey() });
  };

  return { send, progress, result, reset: () => setResult(null) };
}
