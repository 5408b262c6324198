import type { Actor, Deps } from "@licensing/core";
import type { AnyOperation } from "./operation.ts";

interface AnyCall {
  deps: Deps;
  actor: Actor | null;
  input: unknown;
  request: unknown;
}

/** Read-your-writes is kept per session (a person's sign-in) or per access token. */
const principalOf = (actor: Actor | null) =>
  !actor ? undefined : actor.kind === "user" ? `session:${actor.sessionIdHash}` : `token:${actor.tokenId}`;

/**
 * Calls an operation's handler on the database it should read (docs/decisions/0056): an operation
 * declared `reads: "replica"` gets `deps.reads` on the read replica when there is one, it answers, does
 * not lag too far, and the caller has not written within the window; a replica that fails meanwhile is
 * marked down and the call is answered from the primary (it only read). Any other call by a session or
 * token that is not a GET counts as a write of that caller. Both transports call through here.
 */
export async function callOperation(op: AnyOperation, call: AnyCall): Promise<unknown> {
  const handler = op.handler as (call: AnyCall) => Promise<unknown>;
  const replica = call.deps.replica;
  if (!replica) return handler(call);
  const principal = principalOf(call.actor);
  if (op.reads !== "replica") {
    if (op.method === "get" || !principal) return handler(call);
    try {
      return await handler(call);
    } finally {
      await replica.noteWrite(principal);
    }
  }
  if ((principal && (await replica.wroteRecently(principal))) || !(await replica.usable()))
    return handler(call);
  try {
    return await handler({ ...call, deps: { ...call.deps, reads: replica.db } });
  } catch (error) {
    if (!replica.failed(error)) throw error;
    return handler(call);
  }
}
