import { eq } from "drizzle-orm";
import { tables, type UserRow } from "@licensing/db";
import { MINUTE } from "../clock.ts";
import type { Deps } from "../deps.ts";
import { fail } from "../errors.ts";
import type { UserActor } from "./actor.ts";
import { assertCurrentPassword } from "./lockout.ts";

/** How long after a sign-in its session may make a sensitive change without the password again. */
export const RECENT_SIGN_IN_MS = 10 * MINUTE;

/**
 * A sensitive change to the account (turning on 2FA) needs a recent authentication, so that a stolen
 * session cookie alone cannot make it: either the session was opened (signed in) under 10 minutes ago, or
 * the request carries the current password in `field`. A wrong password counts toward the lockout.
 */
export async function assertRecentAuthentication(
  deps: Deps,
  actor: UserActor,
  user: Pick<UserRow, "email" | "passwordHash">,
  password: string | undefined,
  field: string,
) {
  if (password !== undefined) return assertCurrentPassword(deps, user, password, field, actor.request);
  const [session] = await deps.db
    .select({ createdAt: tables.sessions.createdAt })
    .from(tables.sessions)
    .where(eq(tables.sessions.idHash, actor.sessionIdHash))
    .limit(1);
  const age = session ? deps.clock.now().getTime() - session.createdAt.getTime() : Infinity;
  if (age < RECENT_SIGN_IN_MS) return;
  fail(
    "auth.reauthentication_required",
    `${field}: confirm with your current password; this session was signed in more than ${RECENT_SIGN_IN_MS / MINUTE} minutes ago`,
  );
}
