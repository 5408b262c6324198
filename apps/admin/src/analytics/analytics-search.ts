import { USAGE_WINDOW_DAYS } from "@licensing/contracts";
import { z } from "zod";
import { id } from "../lib/search.ts";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional()
  .catch(undefined);

/** The analytics filters, as the URL carries them (deep links, the back button). */
export const AnalyticsSearch = z.object({ from: day, to: day, companyId: id, templateId: id });
export type AnalyticsSearch = z.infer<typeof AnalyticsSearch>;

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
