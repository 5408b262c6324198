import { Uuid } from "@licensing/contracts";
import { z } from "zod";

// The fields of the pages' URL search parameters (`validateSearch` in router.tsx). A URL is typed by hand
// and kept in bookmarks: a value that does not parse is left out (`.catch`) rather than failing the page.

/** A non-empty text: `?search=acme`. */
export const text = z.string().min(1).optional().catch(undefined);

/** An id: `?companyId=…`. */
export const id = Uuid.optional().catch(undefined);

/** `?page=N` of a paged list. Page 1 is the list without it: the URL never says `page=1`. */
export const page = z.number().int().min(2).optional().catch(undefined);

/** The search update that shows page `to` of a list (page 1 takes `page` out of the URL). */
export const toPage =
  (to: number) =>
  <S extends object>(search: S) => ({ ...search, page: to > 1 ? to : undefined });
