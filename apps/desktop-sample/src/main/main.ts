/**
 * The Electron shell: wires the plain modules (config, LicenseSession, IPC, window options) to Electron.
 * Everything with logic lives in those modules and is tested without Electron; this file only connects.
 */
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { app, BrowserWindow, clipboard, dialog, ipcMain, session as electronSession } from "electron";
import { CHANNELS } from "../shared/bridge.ts";
import { desktopConfig } from "./config.ts";
import { registerIpc } from "./ipc.ts";
import { LicenseSession } from "./license-session.ts";
import { locateSimulator, runScenarioFile } from "./scenario-runner.ts";
import { APP_WINDOWS, CONTENT_SECURITY_POLICY, isAllowedNavigation } from "./window-security.ts";

const config = desktopConfig(process.argv, process.env);
if (config.dataDir) app.setPath("userData", config.dataDir);
const rendererPage = join(__dirname, "../renderer/index.html");
const appUrl = pathToFileURL(rendererPage).toString();

// No window may open another, navigate away, embed a webview or ask for a permission.
app.on("web-contents-created", (_event, contents) => {
  contents.setWindowOpenHandler(() => ({ action: "deny" }));
  contents.on("will-navigate", (event, url) => {
    if (!isAllowedNavigation(url, appUrl)) event.preventDefault();
  });
  contents.on("will-redirect", (event, url) => {
    if (!isAllowedNavigation(url, appUrl)) event.preventDefault();
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
});

let session: LicenseSession | null = null;

async function start() {
  electronSession.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
    callback(false),
  );
  electronSession.defaultSession.webRequest.onHeadersReceived((details, callback) =>
    callback({
      responseHeaders: { ...details.responseHeaders, "Content-Security-Policy": [CONTENT_SECURITY_POLICY] },
    }),
  );

  session = await LicenseSession.open({
    dataDir: join(app.getPath("userData"), "license"),
    serverUrl: config.serverUrl,
    publicKey: config.publicKey,
    qa: config.qa,
    logger: console,
  });
  const window = new BrowserWindow(APP_WINDOWS.main(join(__dirname, "../preload/preload.cjs")));
  const running = session;
  registerIpc(
    ipcMain,
    running,
    {
      async chooseLicenseFile() {
        const chosen = await dialog.showOpenDialog(window, {
          title: "Choose your license file",
          filters: [{ name: "License file", extensions: ["lic"] }],
          properties: ["openFile"],
        });
        return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
      },
      async chooseOfflineResponseFile() {
        const chosen = await dialog.showOpenDialog(window, {
          title: "Choose the activation response from your vendor",
          filters: [
            { name: "Text", extensions: ["txt"] },
            { name: "All files", extensions: ["*"] },
          ],
          properties: ["openFile"],
        });
        return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
      },
      async chooseSavePath(defaultName) {
        const chosen = await dialog.showSaveDialog(window, {
          defaultPath: defaultName,
          filters: [{ name: "Text", extensions: ["txt"] }],
        });
        return chosen.canceled ? null : (chosen.filePath ?? null);
      },
      copyText: (text) => clipboard.writeText(text),
      async runScenario() {
        const simulatorBin = locateSimulator(__dirname);
        const chosen = await dialog.showOpenDialog(window, {
          title: "Run a simulator scenario",
          ...(simulatorBin && { defaultPath: join(dirname(simulatorBin), "..", "scenarios") }),
          filters: [{ name: "licensing-sim scenario", extensions: ["yaml", "yml"] }],
          properties: ["openFile"],
        });
        const path = chosen.canceled ? undefined : chosen.filePaths[0];
        return path ? runScenarioFile(path, { simulatorBin }) : null;
      },
    },
    appUrl,
  );
  const unsubscribe = running.onView((view) => {
    if (!window.isDestroyed()) window.webContents.send(CHANNELS.view, view);
  });
  window.on("closed", unsubscribe);
  window.once("ready-to-show", () => window.show());
  await window.loadFile(rendererPage);
}

app.whenReady().then(start, (error: unknown) => {
  console.error(error);
  app.exit(1);
});

app.on("window-all-closed", () => app.quit());

// The client is disposed of before the process ends: it deactivates this machine best-effort (spec §4).
let closing = false;
app.on("will-quit", (event) => {
  if (closing || !session) return;
  closing = true;
  event.preventDefault();
  void session.close().finally(() => app.exit(0));
});
