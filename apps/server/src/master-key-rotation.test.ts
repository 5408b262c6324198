import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { TestClient } from "@licensing/api/testing";
import { createSecretBox, sealedAt } from "@licensing/core";
import { tables } from "@licensing/db";
import { createTestDatabase, type TestDatabase } from "@licensing/db/testing";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";
import { generateMasterKey, parseMasterKey, rotateMasterKeyOf } from "./master-key-rotation.ts";
import { startServer } from "./server.ts";

const OPS = { BOOTSTRAP_OPERATOR_EMAIL: "ops@example.com", BOOTSTRAP_OPERATOR_PASSWORD: "ops-password" };
const TOTP_SECRET = "JBSWY3DPEHPK3PXP";
const totpAt = (id: string) => sealedAt(tables.users.totpSecret, id);
const keyAt = (id: string) => sealedAt(tables.signingKeys.privateKeySealed, id);
const webhookAt = (id: string) => sealedAt(tables.webhookEndpoints.secretSealed, id);

let dataDir: string;
let database: TestDatabase;
const oldKey = generateMasterKey();

/** A server on `key` over the shared database; issues a license of `templateId` (created when absent). */
async function issueWith(key: string, templateId?: string) {
  const env = parseEnv({ PORT: "0", DATA_DIR: dataDir, LICENSING_MASTER_KEY: key, ...OPS });
  const server = await startServer(env, { database, logger: pino({ level: "silent" }) });
  try {
    const operator = new TestClient(server.url);
    await operator.login(OPS.BOOTSTRAP_OPERATOR_EMAIL, OPS.BOOTSTRAP_OPERATOR_PASSWORD);
    const company = (
      await operator.api.companies.create({ body: { name: "Acme", slug: `acme-${Date.now()}` } })
    ).body;
    templateId ??= (
      await operator.api.templates.create({
        body: { name: "Editor", productCode: "EDITOR", defaultOfflineDays: 7, defaultValidityDays: 30 },
      })
    ).body.id;
    const issued = await operator.api.licenses.issue({ body: { companyId: company.id, templateId } });
    return { status: issued.status, publicKey: issued.body.publicKey, templateId };
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "licensing-rotate-"));
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run rotate-master-key", () => {
  it("re-seals signing keys, TOTP secrets and webhook secrets in one go; the service keeps signing with the same key pair", async () => {
    const before = await issueWith(oldKey);
    expect(before.status).toBe(201);
    const [operator] = await database.db.select().from(tables.users);
    const boxOld = createSecretBox(Buffer.from(oldKey, "base64"));
    await database.db
      .update(tables.users)
      .set({ totpSecret: boxOld.seal(TOTP_SECRET, totpAt(operator!.id)) })
      .where(eq(tables.users.id, operator!.id));
    const WEBHOOK_SECRET = "webhook-secret-0123456789";
    const endpointId = randomUUID();
    await database.db.insert(tables.webhookEndpoints).values({
      id: endpointId,
      url: "https://hooks.example.com/in",
      secretSealed: boxOld.seal(WEBHOOK_SECRET, webhookAt(endpointId)),
      events: ["license.issued"],
      createdAt: new Date(),
      updatedAt: new Date(),
    });

    const newKey = generateMasterKey();
    const env = parseEnv({ DATA_DIR: dataDir, LICENSING_MASTER_KEY: oldKey });
    const outcome = await rotateMasterKeyOf(env, parseMasterKey(newKey), database);
    expect(outcome).toMatchObject({ signingKeys: 1, totpSecrets: 1, webhookSecrets: 1, keyFile: null });

    const [key] = await database.db.select().from(tables.signingKeys);
    const [user] = await database.db.select().from(tables.users);
    const boxNew = createSecretBox(Buffer.from(newKey, "base64"));
    expect(boxNew.open(user!.totpSecret!, totpAt(user!.id)).toString()).toBe(TOTP_SECRET);
    expect(() => boxOld.open(key!.privateKeySealed, keyAt(key!.id))).toThrow();
    expect(() => boxOld.open(user!.totpSecret!, totpAt(user!.id))).toThrow();
    const [endpoint] = await database.db.select().from(tables.webhookEndpoints);
    expect(boxNew.open(endpoint!.secretSealed, webhookAt(endpointId)).toString()).toBe(WEBHOOK_SECRET);
    expect(() => boxOld.open(endpoint!.secretSealed, webhookAt(endpointId))).toThrow();

    // The key check value (decision 0053) moved too: an instance on the new key starts.
    const [check] = await database.db.select().from(tables.masterKeyCheck);
    expect(() =>
      boxOld.open(check!.checkValue, sealedAt(tables.masterKeyCheck.checkValue, "master")),
    ).toThrow();
    expect(boxNew.open(check!.checkValue, sealedAt(tables.masterKeyCheck.checkValue, "master")).length).toBe(
      34,
    );
    const after = await issueWith(newKey, before.templateId);
    expect(after).toMatchObject({ status: 201, publicKey: before.publicKey });

    // Nothing was left sealed under the old key: a server given it refuses to start, and says why.
    await expect(issueWith(oldKey, before.templateId)).rejects.toThrow(
      "LICENSING_MASTER_KEY: this key does not open the signing keys, TOTP secrets, webhook secrets stored in the database",
    );
    await database.db.update(tables.users).set({ totpSecret: null });
  }, 120_000);

  it("with the wrong current key changes nothing", async () => {
    const [before] = await database.db.select().from(tables.signingKeys);
    const [checkBefore] = await database.db.select().from(tables.masterKeyCheck);
    const env = parseEnv({ DATA_DIR: dataDir, LICENSING_MASTER_KEY: generateMasterKey() });
    await expect(rotateMasterKeyOf(env, parseMasterKey(generateMasterKey()), database)).rejects.toThrow();
    const [after] = await database.db.select().from(tables.signingKeys);
    expect(after!.privateKeySealed).toBe(before!.privateKeySealed);
    expect(await database.db.select().from(tables.masterKeyCheck)).toEqual([checkBefore]);
  });

  it("with the development key file, replaces the file and keeps the old key beside it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "licensing-rotate-file-"));
    const db = await createTestDatabase();
    try {
      writeFileSync(join(dir, "master.key"), oldKey);
      const newKey = generateMasterKey();
      const outcome = await rotateMasterKeyOf(parseEnv({ DATA_DIR: dir }), parseMasterKey(newKey), db);
      expect(outcome).toMatchObject({ signingKeys: 0, totpSecrets: 0, keyFile: join(dir, "master.key") });
      // A database rotated before any start gets its check value under the new key.
      const [check] = await db.db.select().from(tables.masterKeyCheck);
      const boxNew = createSecretBox(Buffer.from(newKey, "base64"));
      expect(
        boxNew.open(check!.checkValue, sealedAt(tables.masterKeyCheck.checkValue, "master")).length,
      ).toBe(34);
      expect(readFileSync(join(dir, "master.key"), "utf8")).toBe(newKey);
      expect(readFileSync(join(dir, "master.key.old"), "utf8")).toBe(oldKey);
    } finally {
      await db.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses a new key that is not 32 bytes of base64, or no current key at all", async () => {
    expect(() => parseMasterKey("too-short")).toThrow(/32 bytes, base64-encoded/);
    const empty = mkdtempSync(join(tmpdir(), "licensing-rotate-none-"));
    await expect(
      rotateMasterKeyOf(parseEnv({ DATA_DIR: empty }), parseMasterKey(generateMasterKey()), database),
    ).rejects.toThrow(/No master key/);
    rmSync(empty, { recursive: true, force: true });
  });
});

describe("npm run rotate-master-key, as an operator runs it", () => {
  const repo = fileURLToPath(new URL("../../../", import.meta.url));

  it("runs the rotation compiled with the server (no TypeScript loader, no devDependency), building it when stale", async () => {
    const { scripts } = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
    expect(scripts["rotate-master-key"]).toBe("node scripts/rotate-master-key.mjs");

    const dir = mkdtempSync(join(tmpdir(), "licensing-rotate-npm-"));
    try {
      writeFileSync(join(dir, "master.key"), oldKey);
      const { stderr } = await promisify(execFile)(
        "npm",
        ["run", "--silent", "rotate-master-key", "--", "--generate"],
        {
          cwd: repo,
          env: {
            ...process.env,
            DATA_DIR: dir,
            DATABASE_URL: "",
            LICENSING_MASTER_KEY: "",
            LOG_LEVEL: "warn",
          },
        },
      );
      expect(stderr).toContain("Re-sealed 0 signing keys, 0 TOTP secrets and 0 webhook secrets");
      expect(readFileSync(join(dir, "master.key.old"), "utf8")).toBe(oldKey);
      expect(parseMasterKey(readFileSync(join(dir, "master.key"), "utf8"))).toHaveLength(32);

      // What ran is the bundle built beside the server's, from the TypeScript entry.
      const map = JSON.parse(readFileSync(join(repo, "apps/server/dist/rotate-master-key.js.map"), "utf8"));
      expect(map.sources).toContain("../src/rotate-master-key.ts");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
