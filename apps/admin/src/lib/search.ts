import { Uuid } from "@licensing/contracts";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { z } from "zod";
import type { Paging } from "./data-table.tsx";

// The fields of the pages' URL search parameters (`validateSearch` in router.tsx). A URL is typed by hand
// and kept in bookmarks: a value that does not parse is left out (`.catch`) rather than failing the page.

/** A non-empty text: `?search=acme`. */
export const text = z.string().min(1).optional().catch(undefined);

/** An id: `?companyId=…`. */
export const id = Uuid.optional().catch(undefined);

/** `?page=N` of a paged list. Page 1 is the list without it: the URL never says `page=1`. */
export const page = z.number().int().min(2).optional().catch(undefined);

/**
 * The pager of the list on this page, whose page is `?page=` of the URL: the page shown, and going to
 * another (page 1 takes `page` out of the URL).
 */
export function usePaging(noun: string, pageSize: number): Paging {
  const search = useSearch({ strict: false });
  const navigate = useNavigate();
  return {
    noun,
    pageSize,
    page: search.page ?? 1,
    onPage: (to) =>
      void navigate({ to: ".", search: (prev) => ({ ...prev, page: to > 1 ? to : undefined }) }),
  };
}
