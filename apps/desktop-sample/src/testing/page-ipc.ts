/**
 * Bundled into a test page before the app's scripts (`app-window.ts`): what the preload does in Electron,
 * with `ipcRenderer` played by Playwright. Requests go to the `__ipcInvoke` binding (the main process's
 * IPC handlers, told the calling frame), pushes arrive through `__ipcEmit`.
 */
import type { LicenseView } from "../shared/bridge.ts";
import { bridgeOverIpc } from "../preload/bridge-over-ipc.ts";

type Listener = (event: unknown, view: LicenseView) => void;
const page = window as unknown as {
  __ipcInvoke(channel: string, ...args: unknown[]): Promise<unknown>;
  __ipcEmit(channel: string, view: LicenseView): void;
  licensing: unknown;
};
const listeners = new Map<string, Set<Listener>>();
page.__ipcEmit = (channel, view) => {
  for (const listener of listeners.get(channel) ?? []) listener({}, view);
};
page.licensing = bridgeOverIpc({
  invoke: (channel, ...args) => page.__ipcInvoke(channel, ...args),
  on: (channel, listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
  off: (channel, listener) => listeners.get(channel)?.delete(listener),
});
