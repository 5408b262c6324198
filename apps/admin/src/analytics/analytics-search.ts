import { USAGE_WINDOW_DAYS, Uuid } from "@licensing/contracts";

/** The analytics filters, as the URL carries them (deep links, the back button). */
export interface AnalyticsSearch {
  from?: string | undefined;
  to?: string | undefined;
  companyId?: string | undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const date = (v: unknown) => (typeof v === "string" && DATE.test(v) ? v : undefined);

export function analyticsSearch(search: Record<string, unknown>): AnalyticsSearch {
  return {
    from: date(search.from),
    to: date(search.to),
    companyId: Uuid.safeParse(search.companyId).data,
  };
}

const DAY = 86_400_000;
const utcDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The range shown when the URL names none: the server's default window, the last 30 days up to today. */
export function defaultRange(now = Date.now()) {
  return { from: utcDay(now - USAGE_WINDOW_DAYS.default * DAY), to: utcDay(now) };
}

/**
 * The server's answers about the window itself, shown at the range fields rather than above the results
 * (`request.invalid`: a year outside 1970..9999; the company filter is a valid id by the time it is sent).
 */
export const RANGE_ERRORS = new Set([
  "analytics.range_too_large",
  "analytics.invalid_range",
  "request.invalid",
]);
