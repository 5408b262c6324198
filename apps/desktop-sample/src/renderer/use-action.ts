import { useState } from "react";
import type { ActionResult, DesktopError } from "../shared/bridge.ts";

/** Runs one bridge action at a time and keeps its error for the alert under the buttons. */
export function useAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<DesktopError | null>(null);
  /** Resolves to whether the action succeeded. */
  const run = async (name: string, action: () => Promise<ActionResult>): Promise<boolean> => {
    setBusy(name);
    setError(null);
    try {
      const result = await action();
      if (!result.ok) setError(result.error);
      return result.ok;
    } catch {
      setError({ code: "bridge.failed", message: "The app's main process did not answer" });
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, run, clearError: () => setError(null) };
}
