import { describe, expect, it } from "vitest";
import { desktopConfig } from "./config.ts";

const KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

describe("desktopConfig", () => {
  it("defaults: the local server, no pinned key, QA off", () => {
    expect(desktopConfig([], {})).toEqual({
      serverUrl: "http://localhost:3000",
      publicKey: null,
      qa: false,
      dataDir: null,
    });
  });

  it("reads the environment, and the command line wins", () => {
    const env = { LICENSING_SERVER_URL: "https://lic.example.com/", LICENSING_PUBLIC_KEY: KEY.toUpperCase() };
    expect(desktopConfig([], { ...env, LICENSING_QA: "1" })).toMatchObject({
      serverUrl: "https://lic.example.com",
      publicKey: KEY,
      qa: true,
    });
    expect(desktopConfig(["electron", ".", "--qa", "--server-url=http://10.0.0.5:3000"], env)).toMatchObject({
      serverUrl: "http://10.0.0.5:3000",
      qa: true,
    });
  });

  it("a bad value stops the start with the variable's name", () => {
    expect(() => desktopConfig([], { LICENSING_SERVER_URL: "ftp://x" })).toThrow(/LICENSING_SERVER_URL/);
    expect(() => desktopConfig([], { LICENSING_PUBLIC_KEY: "abc" })).toThrow(/LICENSING_PUBLIC_KEY: 64 hex/);
    expect(() => desktopConfig([], { LICENSING_QA: "yes" })).toThrow(/LICENSING_QA/);
  });
});
