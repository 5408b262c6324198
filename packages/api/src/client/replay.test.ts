import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../http/log-redaction.ts";
import {
  createLicensedCompany,
  issueLicense,
  signatureHeaders,
  signedPost,
  startTestApp,
  type IssuedLicense,
  type TestApp,
  type TestClient,
} from "../testing/index.ts";

/**
 * Issue 9, replay hardening: v1 covers only the timestamp, so a captured v1 header replays against another
 * activation of the same license within the window. CLIENT_SIGNATURE_MIN_VERSION=v2 refuses v1 alone;
 * at v1 (the default) each license still sending v1 alone is logged at most once a minute.
 */

interface Setup {
  app: TestApp;
  lines: string[];
  client: TestClient;
  license: IssuedLicense;
  activations: [string, string];
}

async function setUp(minVersion?: "v1" | "v2"): Promise<Setup> {
  const lines: string[] = [];
  const logger = createLogger({ level: "warn", destination: { write: (l: string) => void lines.push(l) } });
  const app = await startTestApp({ logger, clientSignatureMinVersion: minVersion });
  const operator = await app.client({ signIn: true });
  const target = await createLicensedCompany(operator);
  const license = await issueLicense(operator, target, { config: '{"limits":{"maxSeats":5}}' });
  const client = await app.client();
  const activate = async (fp: string) =>
    (await client.api.client.activate({ body: { licenseKey: license.licenseKey, hwFingerprint: fp } })).body
      .activationId;
  return {
    app,
    lines,
    client,
    license,
    activations: [await activate("machine-a"), await activate("machine-b")],
  };
}

const HEARTBEAT = "/api/v1/client/heartbeat";
const DEACTIVATE = "/api/v1/client/deactivate";
const v1Notices = (lines: string[]) =>
  lines
    .map((l) => JSON.parse(l))
    .filter((l) => String(l.msg).startsWith("client request signed with v1 only"));

describe("CLIENT_SIGNATURE_MIN_VERSION=v1 (the default)", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp();
  }, 60_000);
  afterAll(() => s.app.close());

  const body = (i: 0 | 1) => ({ licenseKey: s.license.licenseKey, activationId: s.activations[i] });

  it("accepts a v1 header replayed against another activation (why v2 exists)", async () => {
    const replayed = await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(0), {
      versions: "v1",
      sendBody: body(1),
    });
    expect(replayed.status).toBe(200);
  });

  it("refuses the same replay when the captured header carries v2", async () => {
    for (const path of [HEARTBEAT, DEACTIVATE]) {
      const replayed = await signedPost(s.client, s.app.clock.now(), path, body(0), { sendBody: body(1) });
      expect(replayed.error).toEqual({
        code: "hmac.mismatch",
        message: "X-Service-Signature does not match this request",
        status: 401,
      });
    }
  });

  it("logs a license that sends v1 alone at most once a minute, naming the activation, never the key", async () => {
    s.app.clock.advance(120_000);
    const before = v1Notices(s.lines).length;
    for (let i = 0; i < 3; i++) {
      expect(
        (await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(0), { versions: "v1" })).status,
      ).toBe(200);
    }
    expect(
      (await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(0), { versions: "both" })).status,
    ).toBe(200);
    const notices = v1Notices(s.lines).slice(before);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: 40, activationId: s.activations[0], signature: "v1" });
    expect(s.lines.join("\n")).not.toContain(s.license.licenseKey);

    s.app.clock.advance(59_000);
    await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(1), { versions: "v1" });
    expect(v1Notices(s.lines).slice(before)).toHaveLength(1);
    s.app.clock.advance(2_000);
    await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(1), { versions: "v1" });
    expect(v1Notices(s.lines).slice(before)).toHaveLength(2);
  });

  it("each license has its own minute", async () => {
    const operator = await s.app.client({ signIn: true });
    const other = await issueLicense(operator, await createLicensedCompany(operator));
    const activated = await s.client.api.client.activate({
      body: { licenseKey: other.licenseKey, hwFingerprint: "x" },
    });
    const before = v1Notices(s.lines).length;
    const otherBody = { licenseKey: other.licenseKey, activationId: activated.body.activationId };
    await signedPost(s.client, s.app.clock.now(), HEARTBEAT, otherBody, { versions: "v1" });
    await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(0), { versions: "v1" });
    expect(
      v1Notices(s.lines)
        .slice(before)
        .map((n) => n.activationId),
    ).toEqual([activated.body.activationId]);
  });
});

describe("CLIENT_SIGNATURE_MIN_VERSION=v2", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp("v2");
  }, 60_000);
  afterAll(() => s.app.close());

  const body = (i: 0 | 1) => ({ licenseKey: s.license.licenseKey, activationId: s.activations[i] });
  const v2Required = {
    code: "hmac.v2_required",
    message:
      "This server accepts only v2 request signatures (X-Service-Signature: v2=<hex>); update the client",
    status: 401,
  };

  it("refuses v1 alone on heartbeat and deactivate, replayed or not", async () => {
    for (const path of [HEARTBEAT, DEACTIVATE]) {
      const own = await signedPost(s.client, s.app.clock.now(), path, body(0), { versions: "v1" });
      expect(own.error).toEqual(v2Required);
      const replayed = await signedPost(s.client, s.app.clock.now(), path, body(0), {
        versions: "v1",
        sendBody: body(1),
      });
      expect(replayed.error).toEqual(v2Required);
    }
    const list = await (
      await s.app.client({ signIn: true })
    ).api.activations.list({ params: { id: s.license.id } });
    expect(list.body.map((a) => a.status)).toEqual(["active", "active"]);
    expect(v1Notices(s.lines)).toEqual([]);
  });

  it("accepts v2, alone or beside v1, and refuses a v2 replay with another body", async () => {
    expect(
      (await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(0), { versions: "v2" })).status,
    ).toBe(200);
    expect(
      (await signedPost(s.client, s.app.clock.now(), HEARTBEAT, body(1), { versions: "both" })).status,
    ).toBe(200);
    const replayed = await signedPost(s.client, s.app.clock.now(), DEACTIVATE, body(0), {
      sendBody: body(1),
    });
    expect(replayed.error).toMatchObject({ code: "hmac.mismatch", status: 401 });
    expect((await signedPost(s.client, s.app.clock.now(), DEACTIVATE, body(1))).status).toBe(204);
  });
});

/**
 * Issue 19 item 13: what a signature protects, each sentence of docs/security.md ("Client request
 * signatures") as a case. The HMAC key is the license key, which every signed body carries.
 */
describe("what the client signature protects, and what is left to TLS", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp("v2");
  }, 60_000);
  afterAll(() => s.app.close());

  /** A request as it crossed the wire: its path, its body's bytes and its two headers. */
  function capture(path: string, body: object, key = s.license.licenseKey) {
    const raw = JSON.stringify(body);
    return { path, raw, headers: signatureHeaders(s.app.clock.now(), path, raw, key) };
  }
  const send = (c: ReturnType<typeof capture>, changes: { path?: string; raw?: string } = {}) =>
    s.client.request("POST", changes.path ?? c.path, changes.raw ?? c.raw, c.headers);
  const body = (i: 0 | 1) => ({ licenseKey: s.license.licenseKey, activationId: s.activations[i] });

  it("refuses a request changed by a party without the key: another body, activation or path", async () => {
    const captured = capture(HEARTBEAT, body(0));
    for (const changed of [
      send(captured, { raw: JSON.stringify(body(1)) }),
      send(captured, { raw: captured.raw.replace("}", ',"extra":1}') }),
      send(captured, { path: DEACTIVATE }),
    ]) {
      expect((await changed).error).toMatchObject({ code: "hmac.mismatch", status: 401 });
    }
    const forged = capture(HEARTBEAT, body(0), "SVC-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE");
    expect((await send(forged)).error).toMatchObject({ code: "hmac.mismatch", status: 401 });
  });

  it("accepts the identical request again within 5 minutes, and refuses it once stale", async () => {
    const captured = capture(HEARTBEAT, body(0));
    expect((await send(captured)).status).toBe(200);
    // Not a replay defence inside the window: there is no nonce, the copy is as good as the original.
    s.app.clock.advance(300_000);
    expect((await send(captured)).status).toBe(200);
    s.app.clock.advance(1_000);
    expect((await send(captured)).error).toMatchObject({ code: "hmac.stale", status: 401 });
  });

  it("lets whoever reads one request sign any other: the key is in its body", async () => {
    const seen = capture(HEARTBEAT, body(0));
    const { licenseKey } = JSON.parse(seen.raw) as { licenseKey: string };
    const forged = capture(DEACTIVATE, { licenseKey, activationId: s.activations[1] }, licenseKey);
    expect((await send(forged)).status).toBe(204);
  });

  it("is described so in docs/security.md, which does not call it a replay defence", () => {
    const doc = readFileSync(new URL("../../../../docs/security.md", import.meta.url), "utf8");
    const section = /\n## Client request signatures\n([\s\S]*?)\n## /.exec(doc)?.[1] ?? "";
    for (const claim of [
      /tampering by a party without the key/i,
      /±300 s|5 minutes/,
      /one activation and (one )?body/i,
      /replay(ed|s)? unchanged/i,
      /TLS/,
    ]) {
      expect(section).toMatch(claim);
    }
    expect(doc).not.toMatch(/captured request cannot be replayed/i);
  });
});
