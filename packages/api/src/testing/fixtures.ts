import { hashPassword } from "@licensing/core";
import { tables } from "@licensing/db";
import type { TestApp } from "./index.ts";
import { TestClient } from "./http-client.ts";

/** The password of every account made by `createMember`. */
export const MEMBER_PASSWORD = "member-password-1";
let memberHash: Promise<string> | undefined;
let counter = 0;

export const uniqueSlug = (prefix = "c") =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
export const uniqueEmail = (prefix = "user") => `${prefix}-${uniqueSlug("m")}@example.com`;

export interface Member {
  id: string;
  email: string;
  /** A client signed in as this member. */
  client: TestClient;
}

/** An active account, written straight to the database, then signed in over HTTP. */
export async function createMember(
  app: TestApp,
  options: {
    companyId?: string | null;
    role?: "owner" | "admin" | "viewer" | null;
    isOperator?: boolean;
    email?: string;
  },
): Promise<Member> {
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

export interface CompanyBody {
  id: string;
  path: string;
  depth: number;
  parentId: string | null;
  slug: string;
  status: string;
}

/** Creates a company over HTTP with the given (usually operator) client; throws unless 201. */
export async function createCompany(
  client: TestClient,
  parentId: string | null,
  fields: { name?: string; slug?: string } = {},
): Promise<CompanyBody> {
  const slug = fields.slug ?? uniqueSlug();
  const res = await client.post("/api/v1/panel/companies", { name: fields.name ?? slug, slug, parentId });
  if (res.status !== 201) throw new Error(`create company failed: ${res.status} ${res.text}`);
  return res.body as CompanyBody;
}

/** Creates a personal access token over HTTP and returns a client that sends it as Bearer. */
export async function createTokenClient(app: TestApp, creator: TestClient, companyId: string) {
  const res = await creator.post("/api/v1/panel/api-tokens", { name: "test token", companyId });
  if (res.status !== 201) throw new Error(`create token failed: ${res.status} ${res.text}`);
  const client = new TestClient(app.url);
  client.headers.authorization = `Bearer ${res.body.secret as string}`;
  return { client, id: res.body.token.id as string, secret: res.body.secret as string };
}
