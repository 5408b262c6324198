import { hostname } from "node:os";

/** The machine name sent on activation and shown in the panel; null when the OS gives none. */
export function machineName(): string | null {
  try {
    return hostname().trim().slice(0, 200) || null;
  } catch {
    return null;
  }
}
