/**
 * The API half of the upgrade test (scripts/ci/upgrade.sh), which has built both servers and created the
 * databases. It starts the servers itself, so that the mail and webhook receivers live through every phase:
 *
 *   1. The previous release alone on an empty database: the bootstrap operator signs in, a webhook endpoint
 *      (a local receiver), a company, an invited user who accepts and signs in (a second session), a
 *      template (its signing key sealed under the master key), a license and a bulk of licenses, an
 *      activation and heartbeats signed as the SDK signs them, and the deliveries of their events.
 *   2. The rollout: two instances of HEAD start together on that database while the previous release keeps
 *      running (HEAD migrates on start, one instance at a time under the migrations' advisory lock).
 *   3. Through HEAD: both sessions opened on the previous release still work; the licenses, the
 *      activation, the heartbeats and the webhook deliveries read back; the activation's heartbeat goes on,
 *      answered with a marker the template's key signs; a new license verifies with that key.
 *   4. The previous release, after HEAD's migrations, keeps serving reads and writes: sign-ins, a heartbeat, a new
 *      activation, a new license, the panel's reads (of what HEAD wrote too).
 *   5. Every event was delivered exactly once while three dispatchers ran.
 *   6. The rollout ends (the previous release stops with SIGTERM, exit 0); then the rollback: HEAD stops, the
 *      previous release starts again on the migrated database and serves.
 *   7. Two instances of HEAD start together on an empty database: both come up, each migration is applied
 *      once, one bootstrap operator.
 *
 * Requests are HEAD's typed calls (`@licensing/api/testing`) and its client signing (`signedPost`): the
 * client wire format (docs/client-protocol.md) and the panel's request shapes of the previous release are
 * the same, so this also checks that HEAD's clients are understood by it. A release that changes them must
 * make this test speak the old format to the old server.
 *
 * Environment (set by upgrade.sh): OLD_MAIN, HEAD_MAIN (the compiled servers), DATABASE_URL (the upgraded
 * database), EMPTY_DATABASE_URL, LICENSING_MASTER_KEY, WORK (logs and data directories), OLD_RELEASE (its
 * name), REDIS_URL (optional).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac, createPublicKey, timingSafeEqual, verify } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { env, exit } from "node:process";
import pg from "pg";
import { signedPost, startSmtpReceiver, TestClient } from "@licensing/api/testing";

function must(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`upgrade: ${message}`);
}
const required = (name: string) => {
  const value = env[name];
  if (!value) {
    console.error(`upgrade: ${name} is not set (run scripts/ci/upgrade.sh)`);
    exit(2);
  }
  return value;
};
const OLD_MAIN = required("OLD_MAIN");
const HEAD_MAIN = required("HEAD_MAIN");
const DATABASE_URL = required("DATABASE_URL");
const EMPTY_DATABASE_URL = required("EMPTY_DATABASE_URL");
const MASTER_KEY = required("LICENSING_MASTER_KEY");
const WORK = required("WORK");
const OLD = env.OLD_RELEASE ?? "previous release";
const OPERATOR = { email: "ops@example.com", password: "ops-password" };
const started = Date.now();
const say = (message: string) =>
  console.log(`upgrade: ${message} (${Math.round((Date.now() - started) / 1000)}s)`);

/** Bounded polling of a condition the servers reach on their own (a delivery, a batched write). */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`upgrade: ${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// ---- Servers -------------------------------------------------------------------------------------------

interface Server {
  name: string;
  url: string;
  process: ChildProcess;
  log: string;
  exited: Promise<number | null>;
}
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

async function startServer(name: string, main: string, databaseUrl: string, extra: Record<string, string>) {
  const log = join(WORK, `${name}.log`);
  const out = openSync(log, "w");
  // The tree's root as working directory, as `npm start` runs it.
  const child = spawn(process.execPath, [main], {
    cwd: dirname(dirname(dirname(dirname(main)))),
    env: {
      PATH: env.PATH,
      HOME: env.HOME,
      PORT: "0",
      LOG_LEVEL: "info",
      DATA_DIR: join(WORK, `${name}-data`),
      DATABASE_URL: databaseUrl,
      LICENSING_MASTER_KEY: MASTER_KEY,
      BOOTSTRAP_OPERATOR_EMAIL: OPERATOR.email,
      BOOTSTRAP_OPERATOR_PASSWORD: OPERATOR.password,
      WEBHOOK_ALLOW_PRIVATE: "true",
      ...(env.REDIS_URL ? { REDIS_URL: env.REDIS_URL } : {}),
      ...extra,
    },
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  let gone = false;
  void exited.then(() => (gone = true));
  const text = () => readFileSync(log, "utf8");
  const port = await eventually(
    `${name} listening`,
    async () => {
      if (gone) throw new Error(`upgrade: ${name} exited at start:\n${text().slice(-3000)}`);
      return /"port":(\d+)/.exec(text())?.[1];
    },
    120_000,
  );
  const url = `http://127.0.0.1:${port}`;
  await eventually(`${name} /readyz 200`, async () => {
    const res = await fetch(`${url}/readyz`).catch(() => undefined);
    return res?.status === 200 ? true : undefined;
  });
  return { name, url, process: child, log, exited } satisfies Server;
}

async function stopServer(server: Server) {
  server.process.kill("SIGTERM");
  const code = await server.exited;
  must(
    code === 0,
    `${server.name} exited ${code} after SIGTERM:\n${readFileSync(server.log, "utf8").slice(-3000)}`,
  );
}

/** Lines the server logged at error or fatal (pino levels 50 and 60). */
function loggedErrors(server: Server) {
  return readFileSync(server.log, "utf8")
    .split("\n")
    .filter((line) => /"level":[56]0/.test(line));
}

// ---- Receivers -----------------------------------------------------------------------------------------

const WEBHOOK_SECRET = "whsec-upgrade-test-0123456789";
interface Delivery {
  id: string;
  event: string;
  licenseId: string;
}
const deliveries: Delivery[] = [];
const badSignatures: string[] = [];
const hooks = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const raw = Buffer.concat(chunks);
    const id = String(req.headers["x-service-delivery"]);
    // X-Service-Signature: sha256=<hex HMAC-SHA256 of the exact body> (docs/webhooks.md).
    const expected = Buffer.from(`sha256=${createHmac("sha256", WEBHOOK_SECRET).update(raw).digest("hex")}`);
    const got = Buffer.from(String(req.headers["x-service-signature"]));
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) badSignatures.push(id);
    const body = JSON.parse(raw.toString("utf8")) as { event: string; data: { licenseId: string } };
    deliveries.push({ id, event: body.event, licenseId: body.data.licenseId });
    res.writeHead(200).end("ok");
  });
});
await new Promise<void>((resolve) => hooks.listen(0, "127.0.0.1", resolve));
const hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
const smtp = await startSmtpReceiver();

/** Every event expected so far, as `event licenseId`: each must arrive exactly once. */
const expectedEvents: string[] = [];
const expectEvent = (event: string, licenseId: string) => expectedEvents.push(`${event} ${licenseId}`);
async function allDelivered(phase: string) {
  await eventually(`the webhook deliveries of ${phase}`, async () =>
    expectedEvents.every((e) => deliveries.some((d) => `${d.event} ${d.licenseId}` === e)) ? true : undefined,
  );
}

// ---- Checks --------------------------------------------------------------------------------------------

/** Whether a license token (compact JWS) or a marker (`payload.signature`) is signed by the raw Ed25519 key. */
function signedBy(signed: string, publicKeyHex: string) {
  const segments = signed.split(".");
  const signature = segments.pop();
  if (!signature || segments.length === 0) return false;
  const key = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKeyHex, "hex").toString("base64url") },
    format: "jwk",
  });
  return verify(null, Buffer.from(segments.join(".")), key, Buffer.from(signature, "base64url"));
}

async function heartbeat(server: Server, licenseKey: string, activationId: string, publicKey: string) {
  const res = await signedPost<{ heartbeatToken: string }>(
    new TestClient(server.url),
    new Date(),
    "/api/v1/client/heartbeat",
    { licenseKey, activationId },
  );
  must(res.status === 200, `heartbeat on ${server.name}: ${res.status} ${res.text}`);
  must(
    signedBy(res.body.heartbeatToken, publicKey),
    `the marker from ${server.name} is not signed by the template's key`,
  );
}

async function activate(server: Server, licenseKey: string, machine: string) {
  const res = await new TestClient(server.url).api.client.activate({
    body: { licenseKey, hwFingerprint: machine },
  });
  must(res.status === 200, `activation on ${server.name}: ${res.status} ${res.text}`);
  return res.body.activationId;
}

async function issue(
  server: Server,
  operator: TestClient,
  companyId: string,
  templateId: string,
  publicKey: string,
) {
  const res = await operator.api.licenses.issue({ body: { companyId, templateId } });
  must(res.status === 201, `issue on ${server.name}: ${res.status} ${res.text}`);
  must(res.body.publicKey === publicKey, `${server.name} issued with another public key`);
  must(
    signedBy(res.body.token, publicKey),
    `the license issued on ${server.name} does not verify with the template's key`,
  );
  expectEvent("license.issued", res.body.id);
  return res.body;
}

/** The panel's reads of one license, as a signed-in user sees them. */
async function readLicense(server: Server, client: TestClient, licenseId: string, licenseKey: string) {
  const license = await client.api.licenses.get({ params: { id: licenseId } });
  must(license.status === 200, `license ${licenseId} on ${server.name}: ${license.status} ${license.text}`);
  must(license.body.licenseKey === licenseKey, `license ${licenseId} on ${server.name} has another key`);
  const activations = await client.api.activations.list({ params: { id: licenseId } });
  must(
    activations.status === 200,
    `activations on ${server.name}: ${activations.status} ${activations.text}`,
  );
  return activations.body;
}

async function heartbeatCount(client: TestClient, licenseId: string) {
  const res = await client.api.activations.heartbeats({ params: { id: licenseId }, query: { limit: 1000 } });
  must(res.status === 200, `heartbeats: ${res.status} ${res.text}`);
  return res.body.length;
}

async function countRows(url: string, query: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(query)).rows[0]!.n);
  } finally {
    await client.end();
  }
}

// ---- 1. The previous release alone ---------------------------------------------------------------------

const mailEnv = { SMTP_URL: smtp.url };
const old = await startServer("old", OLD_MAIN, DATABASE_URL, mailEnv);
say(`${OLD} started on an empty database at ${old.url}`);

const operator = new TestClient(old.url);
await operator.login(OPERATOR.email, OPERATOR.password);
const endpoint = await operator.api.webhooks.create({
  body: { url: hooksUrl, secret: WEBHOOK_SECRET, events: ["license.issued", "license.activated"] },
});
must(endpoint.status === 201, `webhook endpoint: ${endpoint.status} ${endpoint.text}`);
const company = await operator.api.companies.create({ body: { name: "Upgrade test", slug: "upgrade-test" } });
must(company.status === 201, `company: ${company.status} ${company.text}`);
const companyId = company.body.id;

// A user invited into the company accepts from the mail's link and signs in: a session of their own.
const userEmail = "admin@upgrade.example.com";
const invited = await operator.api.users.invite({ body: { email: userEmail, companyId, role: "admin" } });
must(invited.status === 201 || invited.status === 200, `invite: ${invited.status} ${invited.text}`);
const mail = await smtp.waitFor(userEmail);
const inviteToken = /[?&/]token=([A-Za-z0-9_-]+)|invite\/([A-Za-z0-9_-]+)/.exec(mail.text);
must(inviteToken, `no invitation link in the mail: ${mail.text}`);
const user = new TestClient(old.url);
const accepted = await user.api.auth.acceptInvite({
  body: { token: (inviteToken[1] ?? inviteToken[2])!, password: "user-password-1" },
});
must(accepted.status < 300, `accept invite: ${accepted.status} ${accepted.text}`);
if (!user.cookie) await user.login(userEmail, "user-password-1");

const template = await operator.api.templates.create({
  body: { name: "Upgrade", productCode: "UPGRADE", defaultOfflineDays: 7, defaultValidityDays: 365 },
});
must(template.status === 201, `template: ${template.status} ${template.text}`);
const templateId = template.body.id;
// The template's public key as the first license carries it (older releases list no signing keys).
const firstIssued = await operator.api.licenses.issue({ body: { companyId, templateId } });
must(firstIssued.status === 201, `issue on ${old.name}: ${firstIssued.status} ${firstIssued.text}`);
const first = firstIssued.body;
const publicKey = first.publicKey;
must(signedBy(first.token, publicKey), `the first license does not verify with its public key`);
expectEvent("license.issued", first.id);
const bulk = await operator.api.licenses.bulkIssue({
  body: { templateId, items: Array.from({ length: 5 }, () => ({ companyId })) },
});
must(bulk.status === 200 || bulk.status === 201, `bulk issue: ${bulk.status} ${bulk.text}`);
must(bulk.body.succeeded === 5, `bulk issue: ${bulk.text}`);
const bulkLicenses = bulk.body.results.map((r) => ({ id: r.licenseId!, licenseKey: r.licenseKey! }));
for (const license of bulkLicenses) expectEvent("license.issued", license.id);

const activationId = await activate(old, first.licenseKey, "upgrade-machine-1");
expectEvent("license.activated", first.id);
await heartbeat(old, first.licenseKey, activationId, publicKey);
await heartbeat(old, first.licenseKey, activationId, publicKey);
const heartbeatsBefore = await eventually("the heartbeats written", async () => {
  const n = await heartbeatCount(operator, first.id);
  return n >= 2 ? n : undefined;
});
await allDelivered(OLD);
const sessionsBefore = await countRows(DATABASE_URL, "select count(*) as n from sessions");
say(
  `${OLD}: a company, an invited user signed in, a template, 6 licenses (1 + a bulk of 5), an activation, ` +
    `${heartbeatsBefore} heartbeats, ${deliveries.length} webhook deliveries, ${sessionsBefore} sessions`,
);

// ---- 2. The rollout: HEAD joins (two instances starting together), the previous release keeps running --

const rollout = Date.now();
const [headA, headB] = await Promise.all([
  startServer("head-a", HEAD_MAIN, DATABASE_URL, mailEnv),
  startServer("head-b", HEAD_MAIN, DATABASE_URL, mailEnv),
]);
const applied = await countRows(DATABASE_URL, "select count(*) as n from drizzle.__drizzle_migrations");
const journal = JSON.parse(
  readFileSync(new URL("../../packages/db/migrations/meta/_journal.json", import.meta.url), "utf8"),
) as { entries: unknown[] };
must(
  applied === journal.entries.length,
  `${applied} migrations recorded, HEAD has ${journal.entries.length}`,
);
say(
  `two HEAD instances started together on ${OLD}'s database in ${Date.now() - rollout} ms; ${applied} migrations recorded once each`,
);

// ---- 3. Through HEAD: what the previous release wrote -------------------------------------------------

for (const head of [headA, headB]) {
  // The sessions opened on the previous release (their cookies) work on HEAD.
  const asOperator = new TestClient(head.url);
  asOperator.cookie = operator.cookie;
  const me = await asOperator.api.auth.me();
  must(me.status === 200, `the operator's session on ${head.name}: ${me.status} ${me.text}`);
  const asUser = new TestClient(head.url);
  asUser.cookie = user.cookie;
  const userMe = await asUser.api.auth.me();
  must(userMe.status === 200, `the invited user's session on ${head.name}: ${userMe.status} ${userMe.text}`);
  // Every license, read by the user within their company.
  const page = await asUser.api.licenses.search({ query: { companyId } });
  must(page.status === 200 && page.body.total === 6, `search on ${head.name}: ${page.status} ${page.text}`);
  const activations = await readLicense(head, asUser, first.id, first.licenseKey);
  must(
    activations.some((a) => a.id === activationId),
    `the activation is missing on ${head.name}`,
  );
  const file = await asOperator.api.licenses.file({ params: { id: first.id } });
  must(file.status === 200 && file.body.token === first.token, `the license file changed on ${head.name}`);
  const keys = await asOperator.api.templates.signingKeys.list({ params: { id: templateId } });
  must(
    keys.status === 200 && keys.body.some((k) => k.publicKeyHex === publicKey && k.status === "Active"),
    `the template's signing keys on ${head.name}: ${keys.status} ${keys.text}`,
  );
  const heartbeats = await heartbeatCount(asOperator, first.id);
  must(
    heartbeats >= heartbeatsBefore,
    `${heartbeats} heartbeats on ${head.name}, ${heartbeatsBefore} before`,
  );
  const sent = await asOperator.api.webhooks.deliveries({
    params: { id: endpoint.body.id },
    query: { limit: 200 },
  });
  must(sent.status === 200, `deliveries on ${head.name}: ${sent.status} ${sent.text}`);
  must(
    sent.body.length === deliveries.length && sent.body.every((d) => d.status === "Succeeded"),
    `the deliveries on ${head.name}: ${sent.body.map((d) => `${d.eventType} ${d.status}`).join(", ")}`,
  );
}
const operatorHead = new TestClient(headA.url);
operatorHead.cookie = operator.cookie;
// The heartbeat goes on, answered with a marker the template's key signs; a new license verifies.
await heartbeat(headA, first.licenseKey, activationId, publicKey);
await heartbeat(headB, first.licenseKey, activationId, publicKey);
const headLicense = await issue(headA, operatorHead, companyId, templateId, publicKey);
const headActivation = await activate(headB, bulkLicenses[0]!.licenseKey, "upgrade-machine-2");
expectEvent("license.activated", bulkLicenses[0]!.id);
await eventually("the heartbeats sent through HEAD", async () => {
  const n = await heartbeatCount(operatorHead, first.id);
  return n >= heartbeatsBefore + 2 ? n : undefined;
});
say(
  "through HEAD: both sessions, 6 licenses, the activation, heartbeats, deliveries; heartbeats go on, a new license verifies",
);

// ---- 4. The previous release after HEAD's migrations --------------------------------------------------

await heartbeat(old, first.licenseKey, activationId, publicKey);
await heartbeat(old, bulkLicenses[0]!.licenseKey, headActivation, publicKey);
const oldLicense = await issue(old, operator, companyId, templateId, publicKey);
const oldActivation = await activate(old, bulkLicenses[1]!.licenseKey, "upgrade-machine-3");
expectEvent("license.activated", bulkLicenses[1]!.id);
// The panel on the previous release reads what HEAD wrote, and HEAD what it wrote.
const onOld = await readLicense(old, user, headLicense.id, headLicense.licenseKey);
must(onOld.length === 0, `the license issued on HEAD has activations on ${OLD}`);
must(
  (await readLicense(old, user, bulkLicenses[0]!.id, bulkLicenses[0]!.licenseKey)).some(
    (a) => a.id === headActivation,
  ),
  `the activation made on HEAD is missing on ${OLD}`,
);
must(
  (await readLicense(headB, operatorHead, bulkLicenses[1]!.id, bulkLicenses[1]!.licenseKey)).some(
    (a) => a.id === oldActivation,
  ),
  `the activation made on ${OLD} is missing on HEAD`,
);
await readLicense(headA, operatorHead, oldLicense.id, oldLicense.licenseKey);
const oldPage = await user.api.licenses.search({ query: { companyId } });
must(
  oldPage.status === 200 && oldPage.body.total === 8,
  `search on ${OLD}: ${oldPage.status} ${oldPage.text}`,
);
// Signing in on the previous release: a wrong password is refused (the login protection writes), the right
// one opens a session.
const wrong = await new TestClient(old.url).api.auth.login({
  body: { email: userEmail, password: "wrong-password-1" },
});
must(wrong.status === 401, `a wrong password on ${OLD}: ${wrong.status} ${wrong.text}`);
await new TestClient(old.url).login(userEmail, "user-password-1");
const oldMe = await user.api.auth.me();
must(oldMe.status === 200, `the user's session on ${OLD}: ${oldMe.status}`);
say(
  `${OLD} after HEAD's migrations: heartbeats, an activation, a license issued, sign-ins, the panel reads HEAD's writes`,
);

// ---- 5. Every event delivered once, while three dispatchers ran ---------------------------------------

await allDelivered("the rollout");
const ids = new Set(deliveries.map((d) => d.id));
must(ids.size === deliveries.length, `a delivery arrived twice: ${deliveries.map((d) => d.id).join(", ")}`);
const perEvent = new Set(deliveries.map((d) => `${d.event} ${d.licenseId}`));
must(perEvent.size === deliveries.length, "an event was delivered under two delivery ids");
must(
  deliveries.length === expectedEvents.length,
  `${deliveries.length} deliveries for ${expectedEvents.length} events`,
);
must(badSignatures.length === 0, `deliveries with a bad signature: ${badSignatures.join(", ")}`);
say(`${deliveries.length} events, each delivered once, every signature valid`);

// ---- 6. The rollout ends; then the rollback ------------------------------------------------------------

for (const server of [old, headA, headB]) {
  const errors = loggedErrors(server);
  must(errors.length === 0, `${server.name} logged errors:\n${errors.join("\n")}`);
}
await stopServer(old);
say(`rollout finished: ${OLD} stopped, HEAD serves`);
await Promise.all([stopServer(headA), stopServer(headB)]);
const rolledBack = await startServer("old-again", OLD_MAIN, DATABASE_URL, mailEnv);
const back = new TestClient(rolledBack.url);
back.cookie = user.cookie;
await readLicense(rolledBack, back, headLicense.id, headLicense.licenseKey);
await heartbeat(rolledBack, first.licenseKey, activationId, publicKey);
const operatorBack = new TestClient(rolledBack.url);
operatorBack.cookie = operator.cookie;
await issue(rolledBack, operatorBack, companyId, templateId, publicKey);
must(loggedErrors(rolledBack).length === 0, `${OLD} logged errors after the rollback`);
await stopServer(rolledBack);
say(`rollback: ${OLD} restarted on the migrated database reads, takes heartbeats and issues`);

// ---- 7. Two instances of HEAD starting together on an empty database ----------------------------------

const [emptyA, emptyB] = await Promise.all([
  startServer("empty-a", HEAD_MAIN, EMPTY_DATABASE_URL, {}),
  startServer("empty-b", HEAD_MAIN, EMPTY_DATABASE_URL, {}),
]);
const emptyApplied = await countRows(
  EMPTY_DATABASE_URL,
  "select count(*) as n from drizzle.__drizzle_migrations",
);
must(emptyApplied === journal.entries.length, `${emptyApplied} migrations recorded on the empty database`);
const operators = await countRows(EMPTY_DATABASE_URL, "select count(*) as n from users");
must(operators === 1, `${operators} bootstrap operators`);
for (const server of [emptyA, emptyB]) {
  await new TestClient(server.url).login(OPERATOR.email, OPERATOR.password);
  must(
    loggedErrors(server).length === 0,
    `${server.name} logged errors:\n${loggedErrors(server).join("\n")}`,
  );
}
await Promise.all([stopServer(emptyA), stopServer(emptyB)]);
say(
  "two HEAD instances started together on an empty database: each migration once, one operator, both serve",
);

await smtp.close();
hooks.close();
say("passed");
