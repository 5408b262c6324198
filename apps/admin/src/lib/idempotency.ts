import type { AppRouter } from "@licensing/api";
import type { UseMutationOptions } from "@tanstack/react-query";
import type { TRPCClientError } from "@trpc/client";
import { useState } from "react";
import { mayHaveRun } from "./errors.ts";

/** A tRPC call's context that sends it alone, with this `Idempotency-Key` header (lib/trpc-links.ts). */
export type IdempotentContext = { idempotencyKey: string };

/** A typed tRPC client call: `client.licenses.issue.mutate`. */
export type KeyedCall<I, O> = (input: I, options: { context: IdempotentContext }) => Promise<O>;

/**
 * The Idempotency-Keys of one form's submissions. Sending the same input again after a failure that may
 * have let it run (no answer, or a 5xx) reuses its key, so the server answers with what the first attempt
 * did rather than doing it twice. After a success, or an answer refusing it (4xx), the same input is a new
 * submission with a new key; another input always is (the server refuses a key with a different body).
 */
export function idempotencyKeys(newKey: () => string = randomKey) {
  // The input of every attempt that may have run, and its key.
  const unsettled = new Map<string, string>();
  return {
    async send<O>(input: unknown, call: (key: string) => Promise<O>): Promise<O> {
      const body = canonicalJson(input);
      const key = unsettled.get(body) ?? newKey();
      unsettled.set(body, key); // a second send meanwhile (a double click) shares the key
      try {
        const result = await call(key);
        unsettled.delete(body);
        return result;
      } catch (error) {
        if (!mayHaveRun(error)) unsettled.delete(body);
        throw error;
      }
    },
  };
}

/**
 * The mutation options of a call that must not run twice (`licenses.issue`): each submission carries an
 * Idempotency-Key, its keys kept while the component lives, e.g.
 * `useAction(useIdempotent(useTRPCClient().licenses.issue.mutate), { … })`.
 */
export function useIdempotent<I, O>(
  call: KeyedCall<I, O>,
): UseMutationOptions<O, TRPCClientError<AppRouter>, I> {
  const [keys] = useState(() => idempotencyKeys());
  return {
    mutationFn: (input) => keys.send(input, (idempotencyKey) => call(input, { context: { idempotencyKey } })),
  };
}

/** JSON with object keys sorted: the same input built in another order is the same submission. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

// 128 random bits in hex. Not crypto.randomUUID: that exists only in a secure context (HTTPS or
// localhost), and the app may be served over plain HTTP on a private network.
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join(
    "",
  );
}
