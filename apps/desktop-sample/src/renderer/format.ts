/** Dates and durations as the app shows them (the user's locale and time zone). */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export const formatDate = (ms: number | null | undefined) =>
  ms == null ? "—" : dateTime.format(new Date(ms));

/** `2 d 03 h 04 min`, `23 h 59 min 58 s`, `4 min 05 s`: coarse when far, to the second when near. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  if (days > 0) return `${days} d ${two(hours)} h ${two(minutes)} min`;
  if (hours > 0) return `${hours} h ${two(minutes)} min ${two(seconds)} s`;
  return `${minutes} min ${two(seconds)} s`;
}

const HOUR = 3_600_000;
/** A clock offset as the QA panel shows it: `+3 d 4 h`, `none`. */
export function formatOffset(ms: number): string {
  if (ms === 0) return "none";
  const days = Math.floor(ms / (24 * HOUR));
  const hours = Math.floor((ms % (24 * HOUR)) / HOUR);
  const minutes = Math.round((ms % HOUR) / 60_000);
  return `+${[days && `${days} d`, hours && `${hours} h`, minutes && `${minutes} min`].filter(Boolean).join(" ")}`;
}

/** Scenario time since the start: `0`, `+15 min`, `+7 d 1 h`. */
export const formatElapsed = (ms: number) => (ms === 0 ? "0" : formatOffset(ms));

/** How long ago, coarsely: `just now`, `25 min ago`, `3 h ago`, `41 days ago`. */
export function formatAgo(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return `${days} ${days === 1 ? "day" : "days"} ago`;
}
