import type { ClientStatus } from "@licensing/client";
import { formatDuration } from "../scenario/duration.ts";

/** `2026-01-04 00:00:00` (UTC), with milliseconds only when there are any. */
export function formatTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  const base = iso.slice(0, 10) + " " + iso.slice(11, 19);
  return iso.endsWith(".000Z") ? base : `${base}.${iso.slice(20, 23)}`;
}

/** `T+3d4h`: scenario time since the start. */
export const formatElapsed = (ms: number) => `T+${formatDuration(ms)}`;

/** One colour per status, shared by the terminal and the HTML report. */
export const STATUS_COLOURS: Record<ClientStatus, { ansi: number; css: string }> = {
  Active: { ansi: 32, css: "#2e9d57" },
  GracePeriod: { ansi: 33, css: "#e0a21b" },
  Expired: { ansi: 31, css: "#cf3b3b" },
  Revoked: { ansi: 35, css: "#8e44ad" },
  Invalid: { ansi: 90, css: "#6b7280" },
};
