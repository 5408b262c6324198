import { useEffect, useState } from "react";
import type { LicenseView } from "../shared/bridge.ts";
import { bridge } from "./bridge.ts";

/** The latest view the main process pushed, and when it arrived (for countdowns between pushes). */
export function useLicenseView(): { view: LicenseView | null; receivedAt: number } {
  const [state, setState] = useState<{ view: LicenseView | null; receivedAt: number }>({
    view: null,
    receivedAt: Date.now(),
  });
  useEffect(() => {
    let live = true;
    const accept = (view: LicenseView) => live && setState({ view, receivedAt: Date.now() });
    const unsubscribe = bridge().onView(accept);
    void bridge().getView().then(accept);
    return () => {
      live = false;
      unsubscribe();
    };
  }, []);
  return state;
}

/** The client's time now, estimated from the last view: its `at` plus the real time since it arrived. */
export function useClientNow(view: LicenseView | null, receivedAt: number): number {
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return view ? view.at + Math.max(0, tick - receivedAt) : tick;
}
