import { eq } from "drizzle-orm";
import { tables, type Executor, type UserRow } from "@licensing/db";
import type { AuthUserResponse, OperatorUserResponse } from "@licensing/contracts";
import { fail } from "../errors.ts";

export async function loadUser(executor: Executor, userId: string): Promise<UserRow> {
  const [user] = await executor.select().from(tables.users).where(eq(tables.users.id, userId)).limit(1);
  return user ?? fail("user.not_found", `No user with id ${userId}`);
}

export async function findUserByEmail(executor: Executor, email: string): Promise<UserRow | undefined> {
  const [user] = await executor
    .select()
    .from(tables.users)
    .where(eq(tables.users.email, email.toLowerCase()))
    .limit(1);
  return user;
}

export const toAuthUser = (u: UserRow): AuthUserResponse => ({
  id: u.id,
  email: u.email,
  displayName: u.displayName,
  isOperator: u.isOperator,
});

export const toOperatorUser = (u: UserRow): OperatorUserResponse => ({
  id: u.id,
  email: u.email,
  displayName: u.displayName,
  status: u.status,
  totpEnabled: u.totpEnabled,
  lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
  createdAt: u.createdAt.toISOString(),
});
