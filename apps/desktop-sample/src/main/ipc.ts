import { z } from "zod";
import { CHANNELS, NETWORK_MODES, type ActionResult, type ScenarioRun } from "../shared/bridge.ts";
import { QA_DISABLED, type LicenseSession } from "./license-session.ts";
import { isAllowedNavigation } from "./window-security.ts";

/** What `ipcMain` offers that the bridge needs (Electron's, or a test's). */
export interface IpcHandlers {
  handle(channel: string, listener: (event: unknown, ...args: unknown[]) => unknown): void;
}

/** The native dialogs and the scenario runner, which live in `main.ts` (they need Electron or the simulator). */
export interface MainProcessServices {
  /** Opens a file dialog for a `.lic`; null when cancelled. */
  chooseLicenseFile(): Promise<string | null>;
  /** Opens a file dialog for a scenario and runs it; null when cancelled. */
  runScenario(): Promise<ScenarioRun | null>;
}

const FetchInput = z.object({ licenseKey: z.string().max(200), url: z.string().max(2000) });
const Network = z.enum(NETWORK_MODES);
const Milliseconds = z.number();
const SeatId = z.uuid();

/** Anything the renderer sends is untrusted: a malformed argument is refused before the session sees it. */
function parsed<T>(schema: z.ZodType<T>, value: unknown, then: (value: T) => Promise<ActionResult>) {
  const result = schema.safeParse(value);
  if (!result.success) {
    return Promise.resolve<ActionResult>({
      ok: false,
      error: { code: "input.invalid", message: result.error.issues.map((issue) => issue.message).join("; ") },
    });
  }
  return then(result.data);
}

/** The frame an IPC message came from (Electron's `event.senderFrame`). */
const senderUrl = (event: unknown) =>
  (event as { senderFrame?: { url?: unknown } | null } | null)?.senderFrame?.url;

/**
 * Maps each bridge channel to the session: one line each, no logic. Only the app's own page may call
 * (`appPage`); a message from any other frame gets an error and reaches nothing.
 */
export function registerIpc(
  ipcMain: IpcHandlers,
  session: LicenseSession,
  services: MainProcessServices,
  appPage: string,
) {
  const ipc: IpcHandlers = {
    handle: (channel, listener) =>
      ipcMain.handle(channel, (event, ...args) => {
        const url = senderUrl(event);
        if (typeof url !== "string" || !isAllowedNavigation(url, appPage)) {
          throw new Error(`Refused ${channel} from a frame that is not the app's page`);
        }
        return listener(event, ...args);
      }),
  };
  ipc.handle(CHANNELS.getView, () => session.view());
  ipc.handle(CHANNELS.chooseLicenseFile, async (): Promise<ActionResult> => {
    const path = await services.chooseLicenseFile();
    return path === null ? { ok: true } : session.installFile(path);
  });
  ipc.handle(CHANNELS.fetchLicense, (_event, input) =>
    parsed(FetchInput, input, (value) => session.fetchLicense(value)),
  );
  ipc.handle(CHANNELS.deactivate, () => session.deactivate());
  ipc.handle(CHANNELS.heartbeat, () => session.heartbeat());
  ipc.handle(CHANNELS.freeSeat, (_event, seatId) =>
    parsed(SeatId, seatId, (value) => session.freeSeat(value)),
  );
  ipc.handle(CHANNELS.qaSetNetwork, (_event, mode) =>
    parsed(Network, mode, (value) => session.setNetwork(value)),
  );
  ipc.handle(CHANNELS.qaAdvanceClock, (_event, ms) =>
    parsed(Milliseconds, ms, (value) => session.advanceClock(value)),
  );
  ipc.handle(CHANNELS.qaResetClock, () => session.resetClock());
  ipc.handle(CHANNELS.qaRestart, () => session.restart());
  ipc.handle(CHANNELS.qaRunScenario, (): Promise<ScenarioRun | null> =>
    session.qaEnabled
      ? services.runScenario()
      : Promise.resolve({ name: "", passed: false, entries: [], error: QA_DISABLED }),
  );
}
