import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TestClient } from "@licensing/api/testing";
import { createSecretBox, sealedAt, SEALED_VERSION } from "@licensing/core";
import { tables } from "@licensing/db";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";
import { generateMasterKey, parseMasterKey, rotateMasterKeyOf } from "./master-key-rotation.ts";
import { startServer } from "./server.ts";

// Values sealed before v2 (AES-GCM bound to no row) are re-sealed as v2 when a server starts: once, even
// when two instances start together (decision 0037).
const OPS = { BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com", BOOTSTRAP_OPERATOR_PASSWORD: "ops-password" };
const TOTP_SECRET = "JBSWY3DPEHPK3PXP";
const WEBHOOK_SECRET = "webhook-secret-0123456789";
const totpAt = (id: string) => sealedAt(tables.users.totpSecret, id);
const keyAt = (id: string) => sealedAt(tables.signingKeys.privateKeySealed, id);
const webhookAt = (id: string) => sealedAt(tables.webhookEndpoints.secretSealed, id);

/** The format before v2: AES-256-GCM with no associated data. */
function sealV1(key: Buffer, plaintext: string | Buffer) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ["v1", ...[iv, cipher.getAuthTag(), body].map((p) => p.toString("base64url"))].join(".");
}

let dataDir: string;
let database: TestDatabase;
const masterKey = generateMasterKey();
const key = Buffer.from(masterKey, "base64");
const box = createSecretBox(key);
const env = () => parseEnv({ PORT: "0", DATA_DIR: dataDir, LICENSING_MASTER_KEY: masterKey, ...OPS });

function logged() {
  const lines: Array<{ msg: string; resealed?: Record<string, number> }> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, logger };
}

/** A template (its signing key), the operator's TOTP secret and a webhook endpoint, all sealed as v1. */
async function storeV1Values() {
  const server = await startServer(env(), { database, logger: pino({ level: "silent" }) });
  try {
    const operator = new TestClient(server.url);
    await operator.login(OPS.BOOTSTRAP_OPERATOR_EMAIL, OPS.BOOTSTRAP_OPERATOR_PASSWORD);
    const template = await operator.api.templates.create({
      body: {
        name: "Editor",
        productCode: `EDITOR${Date.now()}`,
        defaultOfflineDays: 7,
        defaultValidityDays: 30,
      },
    });
    expect(template.status).toBe(201);
  } finally {
    await server.close();
  }
  for (const k of await database.db.select().from(tables.signingKeys)) {
    await database.db
      .update(tables.signingKeys)
      .set({ privateKeySealed: sealV1(key, box.open(k.privateKeySealed, keyAt(k.id))) })
      .where(eq(tables.signingKeys.id, k.id));
  }
  await database.db
    .update(tables.users)
    .set({ totpSecret: sealV1(key, TOTP_SECRET) })
    .where(eq(tables.users.email, OPS.BOOTSTRAP_OPERATOR_EMAIL));
  await database.db.insert(tables.webhookEndpoints).values({
    id: randomUUID(),
    url: "https://hooks.example.com/in",
    secretSealed: sealV1(key, WEBHOOK_SECRET),
    events: ["license.issued"],
    createdAt: new Date(),
    updatedAt: new Date(),
  });
}

const storedValues = async () => [
  ...(await database.db.select().from(tables.signingKeys)).map((k) => ({
    sealed: k.privateKeySealed,
    at: keyAt(k.id),
  })),
  ...(await database.db.select().from(tables.users))
    .filter((u) => u.totpSecret)
    .map((u) => ({ sealed: u.totpSecret!, at: totpAt(u.id) })),
  ...(await database.db.select().from(tables.webhookEndpoints)).map((e) => ({
    sealed: e.secretSealed,
    at: webhookAt(e.id),
  })),
];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "licensing-sealed-"));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the v1 → v2 upgrade of sealed values", () => {
  it("runs once at start-up, with two instances starting together, and the secrets still work", async () => {
    await storeV1Values();
    const stored = await storedValues();
    expect(stored.map((v) => v.sealed.slice(0, 3))).toEqual(["v1.", "v1.", "v1."]);
    for (const v of stored) expect(() => box.open(v.sealed, v.at)).toThrow(/retired v1 format/);

    const [first, second] = [logged(), logged()];
    const servers = await Promise.all([
      startServer(env(), { database, logger: first.logger }),
      startServer(env(), { database, logger: second.logger }),
    ]);
    try {
      const reports = [...first.lines, ...second.lines].filter((l) => l.resealed);
      expect(reports.map((l) => l.resealed)).toEqual([{ signingKeys: 1, totpSecrets: 1, webhookSecrets: 1 }]);
      const upgraded = await storedValues();
      for (const v of upgraded) expect(v.sealed.startsWith(`${SEALED_VERSION}.`)).toBe(true);
      expect(upgraded.map((v) => box.open(v.sealed, v.at).length)).toEqual([
        expect.any(Number),
        TOTP_SECRET.length,
        WEBHOOK_SECRET.length,
      ]);
      // The re-sealed signing key signs.
      const operator = new TestClient(servers[0].url);
      await operator.login(OPS.BOOTSTRAP_OPERATOR_EMAIL, OPS.BOOTSTRAP_OPERATOR_PASSWORD);
      const company = (await operator.api.companies.create({ body: { name: "Acme", slug: "acme-sealed" } }))
        .body;
      const [template] = await database.db.select().from(tables.templates);
      const issued = await operator.api.licenses.issue({
        body: { companyId: company.id, templateId: template!.id },
      });
      expect(issued.status).toBe(201);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }

    // A later start finds nothing to do.
    const third = logged();
    const again = await startServer(env(), { database, logger: third.logger });
    await again.close();
    expect(third.lines.filter((l) => l.resealed)).toEqual([]);
  }, 120_000);

  it("the master key rotation also moves v1 values to v2, under the new key", async () => {
    const [user] = await database.db
      .select()
      .from(tables.users)
      .where(eq(tables.users.email, OPS.BOOTSTRAP_OPERATOR_EMAIL));
    await database.db
      .update(tables.users)
      .set({ totpSecret: sealV1(key, TOTP_SECRET) })
      .where(eq(tables.users.id, user!.id));
    const newKey = generateMasterKey();
    await rotateMasterKeyOf(
      parseEnv({ DATA_DIR: dataDir, LICENSING_MASTER_KEY: masterKey }),
      parseMasterKey(newKey),
      database,
    );
    const [rotated] = await database.db.select().from(tables.users).where(eq(tables.users.id, user!.id));
    const next = createSecretBox(Buffer.from(newKey, "base64"));
    expect(next.open(rotated!.totpSecret!, totpAt(user!.id)).toString()).toBe(TOTP_SECRET);
  });
});
