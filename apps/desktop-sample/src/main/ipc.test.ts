import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHANNELS } from "../shared/bridge.ts";
import { registerIpc } from "./ipc.ts";
import { LicenseSession } from "./license-session.ts";

type Handler = (event: unknown, ...args: unknown[]) => unknown;
const handlers = new Map<string, Handler>();
const APP_PAGE = "file:///opt/acme/resources/app.asar/dist/renderer/index.html";
const fromApp = { senderFrame: { url: `${APP_PAGE}#status` } };
const invoke = (channel: string, ...args: unknown[]) =>
  Promise.resolve(handlers.get(channel)!(fromApp, ...args));
const chosen: string[] = [];
let dir: string;
let session: LicenseSession;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "desktop-ipc-"));
  // No license installed: nothing here reaches a server.
  session = await LicenseSession.open({
    dataDir: dir,
    serverUrl: "http://127.0.0.1:9",
    publicKey: null,
    qa: true,
  });
  registerIpc(
    { handle: (channel, listener) => void handlers.set(channel, listener) },
    session,
    {
      chooseLicenseFile: async () => chosen.shift() ?? null,
      runScenario: async () => null,
    },
    APP_PAGE,
  );
});
afterAll(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the IPC handlers", () => {
  it("answer every request channel of the bridge", () => {
    const requests = Object.values(CHANNELS).filter((channel) => channel !== CHANNELS.view);
    expect([...handlers.keys()].sort()).toEqual(requests.sort());
  });

  it("refuse malformed arguments from the renderer before the session sees them", async () => {
    for (const [channel, args] of [
      [CHANNELS.fetchLicense, [{ licenseKey: 42, url: "x" }]],
      [CHANNELS.fetchLicense, ["SVC-…"]],
      [CHANNELS.qaSetNetwork, ["airplane"]],
      [CHANNELS.qaAdvanceClock, ["1d"]],
      [CHANNELS.freeSeat, ["the office PC"]],
      [CHANNELS.freeSeat, [{ activationId: "0b8f6c1e-4a2d-4f7b-9c3e-5d1a2b3c4d5e" }]],
    ] as const) {
      expect(await invoke(channel, ...args)).toMatchObject({ ok: false, error: { code: "input.invalid" } });
    }
    expect(session.view().qa).toEqual({ enabled: true, network: "online", clockOffsetMs: 0 });
  });

  it("refuse a message from any frame but the app's page", async () => {
    for (const event of [{ senderFrame: { url: "https://evil.example/" } }, { senderFrame: null }, {}]) {
      expect(() => handlers.get(CHANNELS.qaSetNetwork)!(event, "offline")).toThrow(/not the app's page/);
    }
    expect(session.view().qa.network).toBe("online");
  });

  it("a well-formed seat id goes to the session, which frees nothing without a license", async () => {
    expect(await invoke(CHANNELS.freeSeat, "0b8f6c1e-4a2d-4f7b-9c3e-5d1a2b3c4d5e")).toMatchObject({
      ok: false,
      error: { code: "license.not_installed" },
    });
  });

  it("a cancelled file dialog changes nothing; a chosen path goes to the session", async () => {
    expect(await invoke(CHANNELS.chooseLicenseFile)).toEqual({ ok: true });
    chosen.push(join(dir, "missing.lic"));
    expect(await invoke(CHANNELS.chooseLicenseFile)).toMatchObject({
      ok: false,
      error: { code: "license.file_missing" },
    });
    expect(await invoke(CHANNELS.getView)).toMatchObject({ phase: "first-run" });
  });
});

describe("with QA off", () => {
  it("a scenario run is refused before any dialog opens", async () => {
    const off = await LicenseSession.open({
      dataDir: dir,
      serverUrl: "http://127.0.0.1:9",
      publicKey: null,
      qa: false,
    });
    const offHandlers = new Map<string, Handler>();
    let dialogs = 0;
    const services = {
      chooseLicenseFile: async () => null,
      runScenario: async () => (dialogs++, null),
    };
    registerIpc(
      { handle: (channel, listener) => void offHandlers.set(channel, listener) },
      off,
      services,
      APP_PAGE,
    );
    expect(await offHandlers.get(CHANNELS.qaRunScenario)!(fromApp)).toMatchObject({
      passed: false,
      error: { code: "qa.disabled" },
    });
    expect(dialogs).toBe(0);
    await off.close();
  });
});
