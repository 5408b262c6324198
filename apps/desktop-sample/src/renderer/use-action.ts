import { useState } from "react";
import type { ActionResult, DesktopError } from "../shared/bridge.ts";

/** Runs one bridge action at a time and keeps its error for the alert under the buttons. */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<DesktopError | null>(null);
  const run = async (name: string, action: () => Promise<ActionResult>) => {
    setBusy(name);
    setError(null);
    try {
      const result = await action();
      if (!result.ok) setError(result.error);
    } catch {
      setError({ code: "bridge.failed", message: "The app's main process did not answer" });
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, run, clearError: () => setError(null) };
}
