import { DAY } from "../clock.ts";

/** The UTC day of an instant, YYYY-MM-DD. */
export const utcDay = (instant: Date): string => instant.toISOString().slice(0, 10);

/** The start (00:00 UTC) of a YYYY-MM-DD day. */
export const dayStart = (day: string): Date => new Date(`${day}T00:00:00.000Z`);

export const addDays = (day: string, days: number): string =>
  utcDay(new Date(dayStart(day).getTime() + days * DAY));

/** Every day from `first` to `last`, both included, ascending. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}
