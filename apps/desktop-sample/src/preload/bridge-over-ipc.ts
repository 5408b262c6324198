import { CHANNELS, type DesktopBridge, type LicenseView } from "../shared/bridge.ts";

/** What the bridge needs of `ipcRenderer` (Electron's in the preload, a test page's over Playwright). */
export interface RendererIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, view: LicenseView) => void): unknown;
  off(channel: string, listener: (event: unknown, view: LicenseView) => void): unknown;
}

/** `window.licensing`: each bridge function is one channel; the renderer never gets `ipc` itself. */
export function bridgeOverIpc(ipc: RendererIpc): DesktopBridge {
  const invoke =
    <T>(channel: string) =>
    (...args: unknown[]) =>
      ipc.invoke(channel, ...args) as Promise<T>;
  return {
    getView: invoke(CHANNELS.getView),
    onView(listener) {
      const handler = (_event: unknown, view: LicenseView) => listener(view);
      ipc.on(CHANNELS.view, handler);
      return () => void ipc.off(CHANNELS.view, handler);
    },
    chooseLicenseFile: invoke(CHANNELS.chooseLicenseFile),
    fetchLicense: invoke(CHANNELS.fetchLicense),
    deactivate: invoke(CHANNELS.deactivate),
    heartbeat: invoke(CHANNELS.heartbeat),
    freeSeat: invoke(CHANNELS.freeSeat),
    qa: {
      setNetwork: invoke(CHANNELS.qaSetNetwork),
      advanceClock: invoke(CHANNELS.qaAdvanceClock),
      resetClock: invoke(CHANNELS.qaResetClock),
      restart: invoke(CHANNELS.qaRestart),
      runScenario: invoke(CHANNELS.qaRunScenario),
    },
  };
}
