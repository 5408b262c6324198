import { sql, type SQL } from "drizzle-orm";
import { tables } from "@licensing/db";
import { fail } from "../errors.ts";

const l = tables.licenses;

/** A place in a license list, newest first: the sort key of the last row served (decision 0058). */
export interface LicenseCursor {
  /** `issued_at` as PostgreSQL holds it, to the microsecond: a `Date` would round it to the millisecond. */
  issuedAt: string;
  id: string;
}

const ISSUED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `issued_at` in the cursor's form, for a select list. */
export const issuedAtText = sql<string>`to_char(${l.issuedAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const encodeCursor = (cursor: LicenseCursor) =>
  Buffer.from(`${cursor.issuedAt}|${cursor.id}`).toString("base64url");

/** The cursor `after` names, or `license.invalid_cursor`. */
export function decodeCursor(after: string): LicenseCursor {
  const [issuedAt, id, ...rest] = Buffer.from(after, "base64url").toString("utf8").split("|");
  const valid =
    /^[A-Za-z0-9_-]+$/.test(after) &&
    rest.length === 0 &&
    issuedAt !== undefined &&
    ISSUED_AT.test(issuedAt) &&
    !Number.isNaN(Date.parse(issuedAt)) &&
    id !== undefined &&
    UUID.test(id);
  if (!valid)
    fail(
      "license.invalid_cursor",
      "after is not a cursor of this list; pass a nextCursor as it was returned",
    );
  return { issuedAt: issuedAt!, id: id! };
}

/**
 * The rows after `cursor`, newest first: a row comparison on (issued_at, id), the leading columns (after
 * the filter column) of every licenses_by_*_issued index, so the scan starts at the cursor.
 */
export const afterCursor = (cursor: LicenseCursor): SQL =>
  sql`(${l.issuedAt}, ${l.id}) < (${cursor.issuedAt}::timestamptz, ${cursor.id}::uuid)`;
