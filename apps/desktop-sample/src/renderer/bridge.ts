import type { DesktopBridge } from "../shared/bridge.ts";

declare global {
  interface Window {
    /** Exposed by the preload script (src/preload/preload.ts). */
    licensing: DesktopBridge;
  }
}

/** The preload bridge: the renderer's only way to the main process. */
export const bridge = (): DesktopBridge => window.licensing;
