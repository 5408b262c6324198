import { z } from "zod";

/**
 * The revocation list of a template, fetched from the public client endpoint page by page (decision 0049).
 * Its format's one definition is the protocol's (`packages/protocol/src/revocation.ts`), which the app may
 * not import: this reads only the payload's `next` cursor (to ask for the following page) and how many
 * licenses a page names. It checks no signature: the SDK does, when the list is applied.
 */
const PagePayload = z.object({
  revoked: z.array(z.object({ lid: z.string(), revokedAt: z.number() })),
  next: z.string().nullable(),
});
export type RevocationPage = { list: string; count: number; next: string | null };

export function readPage(list: string): RevocationPage | null {
  const segment = list.split(".")[1];
  if (!segment || !/^[A-Za-z0-9_-]+$/.test(segment)) return null;
  try {
    const bytes = Uint8Array.from(atob(segment.replace(/-/g, "+").replace(/_/g, "/")), (c) =>
      c.charCodeAt(0),
    );
    const parsed = PagePayload.safeParse(JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)));
    return parsed.success ? { list, count: parsed.data.revoked.length, next: parsed.data.next } : null;
  } catch {
    return null;
  }
}

/** The endpoint's refusal, in its own words (`{code, message, status}`). */
export class RevocationListError extends Error {}

const ErrorBody = z.object({ code: z.string(), message: z.string() });

/** Every page of the template's list of licenses revoked since `since` (ISO; absent: all). */
export async function fetchRevocationLists(
  templateId: string,
  since: string | null,
  get: typeof fetch = fetch,
): Promise<RevocationPage[]> {
  const pages: RevocationPage[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ templateId });
    if (since) query.set("since", since);
    if (cursor) query.set("cursor", cursor);
    const answer = await get(`/api/v1/client/revocations?${query}`, { credentials: "omit" });
    const body: unknown = await answer.json().catch(() => null);
    if (!answer.ok) {
      const error = ErrorBody.safeParse(body);
      throw new RevocationListError(
        error.success ? `${error.data.message} (${error.data.code})` : `The server answered ${answer.status}`,
      );
    }
    const list = z.object({ list: z.string() }).safeParse(body);
    const page = list.success ? readPage(list.data.list) : null;
    if (!page) throw new RevocationListError("The server's answer is not a revocation list");
    if (page.next !== null && page.next === cursor)
      throw new RevocationListError("The server gave the same page twice");
    pages.push(page);
    cursor = page.next;
  } while (cursor !== null);
  return pages;
}

/** The file name of page `index` of `pages` pages: one file needs no number. */
export const listFileName = (productCode: string, index: number, pages: number) =>
  `${productCode}-revocations${pages > 1 ? `-${index + 1}-of-${pages}` : ""}.txt`;
