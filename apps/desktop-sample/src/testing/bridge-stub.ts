import type { ActionResult, LicenseView, ScenarioRun } from "../shared/bridge.ts";

/** What the stub answers, per bridge method (default `{ok: true}`); set from the test. */
export type StubAnswers = Record<string, ActionResult | ScenarioRun | null>;

export interface StubState {
  view: LicenseView;
  answers: StubAnswers;
}

/**
 * A stand-in for the preload bridge, run in the page before the app (`page.addInitScript`): it answers
 * from `window.__stub`, records every call in `window.__calls`, and `window.__push(view)` pushes a view
 * as the main process would. It is self-contained: Playwright serializes it into the page.
 */
export function installBridgeStub(initial: StubState) {
  type Listener = (view: LicenseView) => void;
  const listeners = new Set<Listener>();
  const w = window as unknown as {
    __stub: StubState;
    __calls: Array<{ method: string; args: unknown[] }>;
    __push: (view: LicenseView) => void;
    licensing: unknown;
  };
  w.__stub = initial;
  w.__calls = [];
  w.__push = (view) => {
    w.__stub.view = view;
    for (const listener of listeners) listener(view);
  };
  const call =
    (method: string) =>
    async (...args: unknown[]) => {
      w.__calls.push({ method, args });
      return method in w.__stub.answers ? w.__stub.answers[method] : { ok: true };
    };
  w.licensing = {
    getView: async () => w.__stub.view,
    onView(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    chooseLicenseFile: call("chooseLicenseFile"),
    fetchLicense: call("fetchLicense"),
    deactivate: call("deactivate"),
    heartbeat: call("heartbeat"),
    freeSeat: call("freeSeat"),
    qa: {
      setNetwork: call("qa.setNetwork"),
      advanceClock: call("qa.advanceClock"),
      resetClock: call("qa.resetClock"),
      restart: call("qa.restart"),
      runScenario: call("qa.runScenario"),
    },
  };
}
