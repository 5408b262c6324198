import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { CompanyResponse, CompanyRole } from "@licensing/contracts";
import { hashPassword } from "@licensing/core";
import { tables } from "@licensing/db";
import { eq } from "drizzle-orm";
import { TestClient } from "./http-client.ts";
import { OPERATOR, type TestApp } from "./index.ts";

/**
 * The rows a test starts from: companies, members and API tokens. `seedCompany`, `createMember` and
 * `createTokenClient` (without a creator) write straight to the database, so a suite does not depend on
 * another domain's endpoints; `createCompany` and `createTokenClient` with a creator go over HTTP, for the
 * suites where that path (its audit rows, its authorization) is part of what they check. Everything a test
 * asserts still goes over HTTP.
 */

/** The password of every account made by `createMember`. */
export const MEMBER_PASSWORD = "member-password-1";
let memberHash: Promise<string> | undefined;
let counter = 0;

export const uniqueSlug = (prefix = "c") =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
export const uniqueEmail = (prefix = "user") => `${prefix}-${uniqueSlug("m")}@example.com`;

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

/** A company as the API answers it. */
export type CompanyBody = CompanyResponse;

/** Creates a company over HTTP with the given (usually operator) client; throws unless 201. */
export async function createCompany(
  client: TestClient,
  parentId: string | null,
  fields: { name?: string; slug?: string } = {},
): Promise<CompanyBody> {
  const slug = fields.slug ?? uniqueSlug();
  const res = await client.api.companies.create({ body: { name: fields.name ?? slug, slug, parentId } });
  if (res.status !== 201) throw new Error(`create company failed: ${res.status} ${res.text}`);
  return res.body;
}

export interface Member {
  id: string;
  email: string;
  /** A client signed in as this member. */
  client: TestClient;
}

/** An active account (with `role` on `companyId`, or an operator), written to the database, then signed in over HTTP. */
export async function createMember(
  app: TestApp,
  options: {
    companyId?: string | null;
    role?: CompanyRole | null;
    isOperator?: boolean;
    email?: string;
  },
): Promise<Member> {
  // One argon2 hash for every member: hashing is deliberately slow.
  memberHash ??= hashPassword(MEMBER_PASSWORD);
  const email = options.email ?? uniqueEmail(options.role ?? "operator");
  const [row] = await app.deps.db
    .insert(tables.users)
    .values({
      email,
      passwordHash: await memberHash,
      isOperator: options.isOperator ?? false,
      status: "active",
      companyId: options.companyId ?? null,
      role: options.role ?? null,
      createdAt: app.clock.now(),
    })
    .returning();
  const client = new TestClient(app.url);
  await client.login(email, MEMBER_PASSWORD);
  return { id: row!.id, email, client };
}

/**
 * A personal access token of `company` (Admin there) and a client that sends it as Bearer. With
 * `creator`, it is created over HTTP by that client (so it is that user's token); otherwise it is written
 * to the database with no creator, acting for the bootstrap operator (its root user, decision 0037).
 */
export async function createTokenClient(
  app: TestApp,
  company: { id: string },
  options: { creator?: TestClient } = {},
): Promise<{ client: TestClient; id: string; secret: string }> {
  let id: string;
  let secret: string;
  if (options.creator) {
    const res = await options.creator.api.apiTokens.create({
      body: { name: "test token", companyId: company.id },
    });
    if (res.status !== 201) throw new Error(`create token failed: ${res.status} ${res.text}`);
    id = res.body.token.id;
    secret = res.body.secret;
  } else {
    secret = `svc_pat_${randomBytes(32).toString("base64url")}`;
    const [operator] = await app.database.db
      .select({ id: tables.users.id })
      .from(tables.users)
      .where(eq(tables.users.email, OPERATOR.email));
    const [row] = await app.database.db
      .insert(tables.apiTokens)
      .values({
        name: "test token",
        companyId: company.id,
        rootUserId: operator!.id,
        prefix: secret.slice(0, 12),
        secretHash: createHash("sha256").update(secret).digest("hex"),
        createdAt: app.clock.now(),
      })
      .returning();
    id = row!.id;
  }
  const client = new TestClient(app.url);
  client.headers.authorization = `Bearer ${secret}`;
  return { client, id, secret };
}
