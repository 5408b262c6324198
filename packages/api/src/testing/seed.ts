import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { CompanyRole } from "@licensing/contracts";
import { hashPassword } from "@licensing/core";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import type { TestClient } from "./http-client.ts";
import type { TestApp } from "./index.ts";

/**
 * Rows a test needs as a starting point, written straight to the database so a suite does not depend on
 * the endpoints of another domain. Everything a test asserts still goes over HTTP.
 */

export interface SeededCompany {
  id: string;
  path: string;
}

/** A company under `parent` (a root when absent), Active unless `status` says otherwise. */
export async function seedCompany(
  app: TestApp,
  options: { parent?: SeededCompany; name?: string; status?: "Active" | "Archived" } = {},
): Promise<SeededCompany> {
  const id = randomUUID();
  const path = `${options.parent?.path ?? "/"}${id}/`;
  await app.database.db.insert(tables.companies).values({
    id,
    name: options.name ?? `Company ${id.slice(0, 8)}`,
    slug: `c-${id.slice(0, 8)}`,
    parentId: options.parent?.id ?? null,
    path,
    depth: path.split("/").length - 3,
    status: options.status ?? "Active",
    createdAt: app.clock.now(),
  });
  return { id, path };
}

export async function archiveSeededCompany(app: TestApp, company: SeededCompany) {
  await app.database.db
    .update(tables.companies)
    .set({ status: "Archived" })
    .where(eq(tables.companies.id, company.id));
}

/** A client that authenticates with a fresh personal access token of `company` (Admin there). */
export async function tokenClient(app: TestApp, company: SeededCompany): Promise<TestClient> {
  const secret = `svc_pat_${randomBytes(32).toString("base64url")}`;
  await app.database.db.insert(tables.apiTokens).values({
    name: "test token",
    companyId: company.id,
    prefix: secret.slice(0, 12),
    secretHash: createHash("sha256").update(secret).digest("hex"),
    createdAt: app.clock.now(),
  });
  const client = await app.client();
  client.headers.authorization = `Bearer ${secret}`;
  return client;
}

/** A signed-in user with `role` on `company`. */
export async function memberClient(
  app: TestApp,
  company: SeededCompany,
  role: CompanyRole,
): Promise<TestClient> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const password = "member-password-1";
  await app.database.db.insert(tables.users).values({
    email,
    passwordHash: await hashPassword(password),
    status: "active",
    companyId: company.id,
    role,
    createdAt: app.clock.now(),
  });
  const client = await app.client();
  await client.login(email, password);
  return client;
}
