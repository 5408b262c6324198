/**
 * The preload bridge (sandboxed, bundled to CommonJS): exposes `window.licensing`, a narrow typed API over
 * IPC. The renderer gets views and results, never `ipcRenderer` itself, a path or the license key.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import { CHANNELS, type DesktopBridge, type LicenseView } from "../shared/bridge.ts";

const bridge: DesktopBridge = {
  getView: () => ipcRenderer.invoke(CHANNELS.getView),
  onView(listener) {
    const handler = (_event: IpcRendererEvent, view: LicenseView) => listener(view);
    ipcRenderer.on(CHANNELS.view, handler);
    return () => void ipcRenderer.off(CHANNELS.view, handler);
  },
  chooseLicenseFile: () => ipcRenderer.invoke(CHANNELS.chooseLicenseFile),
  fetchLicense: (input) => ipcRenderer.invoke(CHANNELS.fetchLicense, input),
  deactivate: () => ipcRenderer.invoke(CHANNELS.deactivate),
  heartbeat: () => ipcRenderer.invoke(CHANNELS.heartbeat),
  qa: {
    setNetwork: (mode) => ipcRenderer.invoke(CHANNELS.qaSetNetwork, mode),
    advanceClock: (ms) => ipcRenderer.invoke(CHANNELS.qaAdvanceClock, ms),
    resetClock: () => ipcRenderer.invoke(CHANNELS.qaResetClock),
    restart: () => ipcRenderer.invoke(CHANNELS.qaRestart),
    runScenario: () => ipcRenderer.invoke(CHANNELS.qaRunScenario),
  },
};

contextBridge.exposeInMainWorld("licensing", bridge);
