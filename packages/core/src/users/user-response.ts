import type { UserRow } from "@licensing/db";
import type { UserResponse } from "@licensing/contracts";

export const toUserResponse = (u: UserRow): UserResponse => ({
  id: u.id,
  email: u.email,
  displayName: u.displayName,
  isOperator: u.isOperator,
  totpEnabled: u.totpEnabled,
  status: u.status,
  companyId: u.companyId,
  role: u.role,
  lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
  createdAt: u.createdAt.toISOString(),
});
