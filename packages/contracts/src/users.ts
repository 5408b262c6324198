import { z } from "zod";
import { CompanyRole, DisplayName, Email, Timestamp, UserStatus, Uuid } from "./common.ts";
import { example } from "./examples.ts";

export const UserResponse = z
  .object({
    id: Uuid,
    email: z.string().meta({ examples: [example.email] }),
    displayName: z
      .string()
      .nullable()
      .meta({ examples: [example.displayName] }),
    isOperator: z.boolean(),
    totpEnabled: z.boolean(),
    status: UserStatus,
    companyId: Uuid.nullable(),
    role: CompanyRole.nullable(),
    lastLoginAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "UserResponse" });
export type UserResponse = z.infer<typeof UserResponse>;

export const ListUsersQuery = z.object({
  companyId: Uuid.optional().meta({
    description: "users of this company and its subtree; absent: every company visible to you",
  }),
});

export const InviteUserRequest = z
  .object({ email: Email, companyId: Uuid, role: CompanyRole, displayName: DisplayName.optional() })
  .meta({ id: "InviteUserRequest" });
export type InviteUserRequest = z.infer<typeof InviteUserRequest>;
