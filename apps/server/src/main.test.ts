import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exitCode, START_SCRIPT as main, startProcess } from "./testing/start-process.ts";

const dataDir = mkdtempSync(join(tmpdir(), "licensing-main-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const start = (env: Record<string, string>) => startProcess({ DATA_DIR: dataDir, ...env });

const login = (url: string, email: string, password: string) =>
  fetch(`${url}/api/v1/panel/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });

/**
 * A sign-in sent as `Expect: 100-continue`: `accepted` resolves when the server has read the headers (it
 * answers 100 Continue), and the body leaves only at `sendBody()`.
 */
function loginInTwoSteps(url: string, email: string, password: string) {
  const body = JSON.stringify({ email, password });
  const req = request(`${url}/api/v1/panel/auth/login`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      expect: "100-continue",
    },
  });
  const status = new Promise<number | undefined>((resolve, reject) => {
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on("error", reject);
  });
  const accepted = once(req, "continue");
  req.flushHeaders();
  return { accepted, status, sendBody: () => req.end(body) };
}

// An embedded start loads PGlite's WebAssembly and, on a new directory, runs initdb: tens of seconds on a
// loaded 2-core machine (docs/performance.md), hence the long timeouts.
describe("npm start (scripts/start.mjs)", { timeout: 150_000 }, () => {
  const operator = {
    BOOTSTRAP_OPERATOR_EMAIL: "boot@example.com",
    BOOTSTRAP_OPERATOR_PASSWORD: "boot-password",
  };

  it("starts on the embedded database, creates the bootstrap operator, and stops gracefully on SIGTERM", async () => {
    const server = await start(operator);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(
      (await login(server.url, operator.BOOTSTRAP_OPERATOR_EMAIL, operator.BOOTSTRAP_OPERATOR_PASSWORD))
        .status,
    ).toBe(200);
    // A request in flight when SIGTERM arrives still gets its answer. In flight for sure, whatever the
    // timing: the server has read its headers (it said 100 Continue) and cannot answer before its body,
    // which is sent only after the signal.
    const inFlight = loginInTwoSteps(
      server.url,
      operator.BOOTSTRAP_OPERATOR_EMAIL,
      operator.BOOTSTRAP_OPERATOR_PASSWORD,
    );
    await inFlight.accepted;
    const exited = exitCode(server.child);
    server.child.kill("SIGTERM");
    inFlight.sendBody();
    expect(await inFlight.status).toBe(200);
    expect(await exited).toBe(0);
    expect(server.output()).toContain("shutting down");
  });

  it("keeps its data across restarts and does not bootstrap twice", async () => {
    const server = await start({ ...operator, BOOTSTRAP_OPERATOR_PASSWORD: "a-different-password" });
    expect(
      (await login(server.url, operator.BOOTSTRAP_OPERATOR_EMAIL, operator.BOOTSTRAP_OPERATOR_PASSWORD))
        .status,
    ).toBe(200);
    expect(server.output()).not.toContain("created the bootstrap operator");
    const exited = exitCode(server.child);
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("with SHUTDOWN_DRAIN_SECONDS, answers /readyz 503 first while still serving requests, then exits", async () => {
    const server = await start({ ...operator, SHUTDOWN_DRAIN_SECONDS: "3" });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const exited = exitCode(server.child);
    server.child.kill("SIGTERM");
    // The signal is handled at once; the listener stays open for the drain period. No duration is asserted.
    let readyz = await fetch(`${server.url}/readyz`);
    for (let tries = 0; readyz.status === 200 && tries < 1000; tries++)
      readyz = await fetch(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toEqual({ status: "shutting down" });
    // A new request during the drain is served in full.
    expect(
      (await login(server.url, operator.BOOTSTRAP_OPERATOR_EMAIL, operator.BOOTSTRAP_OPERATOR_PASSWORD))
        .status,
    ).toBe(200);
    expect(await exited).toBe(0);
    expect(server.output()).toContain('"drainSeconds":3');
  });

  it("refuses to start on a bad variable and names it", async () => {
    const child = spawn(process.execPath, [main], {
      env: { ...process.env, PORT: "nope", DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    expect(await exitCode(child)).toBe(1);
    expect(stderr).toContain("PORT:");
  });
});
