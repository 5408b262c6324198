/**
 * The preload bridge (sandboxed, bundled to CommonJS): exposes `window.licensing`, a narrow typed API over
 * IPC. The renderer gets views and results, never `ipcRenderer` itself, a path or the license key.
 */
import { contextBridge, ipcRenderer } from "electron";
import { bridgeOverIpc } from "./bridge-over-ipc.ts";

contextBridge.exposeInMainWorld("licensing", bridgeOverIpc(ipcRenderer));
