import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { webhooks } from "@licensing/core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLicensedCompany, issueLicense, startTestApp, type TestApp } from "../testing/index.ts";

/** The receiver example of the README's Webhooks section, run as written against real deliveries. */
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const SECRET = "readme-example-secret-42";

function readmeReceiver(): string {
  const readme = readFileSync(`${root}README.md`, "utf8");
  const section = readme.slice(readme.indexOf("## Webhooks"));
  const code = /```js\n([\s\S]*?)```/.exec(section);
  if (!code) throw new Error("no js block in the README's Webhooks section");
  return code[1]!;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

let app: TestApp;
let child: ChildProcess;
let port: number;
// Inside the repository's node_modules, so the example's `import "standardwebhooks"` resolves.
const dir = `${root}node_modules/.cache/readme-receiver-${process.pid}`;

beforeAll(async () => {
  app = await startTestApp({ webhooks: { allowPrivate: true } });
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/receiver.mjs`, readmeReceiver());
  port = await freePort();
  child = spawn(process.execPath, [`${dir}/receiver.mjs`], {
    env: { ...process.env, WEBHOOK_SECRET: SECRET, PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // Polls until the example listens; the bound only stops a hang.
  await vi.waitFor(() => fetch(`http://127.0.0.1:${port}/`, { method: "POST", body: "{}" }), {
    timeout: 30_000,
    interval: 100,
  });
});
afterAll(async () => {
  child?.kill();
  rmSync(dir, { recursive: true, force: true });
  await app?.close();
});

describe("the README's receiver example", () => {
  it("accepts a real delivery (204) and rejects one signed with another secret (401)", async () => {
    const op = await app.client({ signIn: true });
    const url = `http://127.0.0.1:${port}/hooks`;
    const good = await op.api.webhooks.create({ body: { url, secret: SECRET, events: ["license.issued"] } });
    const bad = await op.api.webhooks.create({
      body: { url, secret: "some-other-secret-entirely", events: ["license.issued"] },
    });
    const output: string[] = [];
    child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    const license = await issueLicense(op, await createLicensedCompany(op));
    // The example's receiver checks the Standard Webhooks timestamp against the wall clock, which is
    // where the test app's clock starts.
    expect(await webhooks.dispatchDueDeliveries(app.deps)).toBe(2);
    const deliveries = async (id: string) => (await op.api.webhooks.deliveries({ params: { id } })).body;
    const [accepted] = await deliveries(good.body.id);
    const [rejected] = await deliveries(bad.body.id);
    expect(accepted).toMatchObject({ status: "Succeeded", responseStatusCode: 204 });
    expect(rejected).toMatchObject({ status: "Pending", responseStatusCode: 401 });
    // It logs before answering; its output reaches this process through a pipe, at no set time.
    await vi.waitFor(() => expect(output.join("")).toContain(license.id), { timeout: 20_000 });
  });
});
