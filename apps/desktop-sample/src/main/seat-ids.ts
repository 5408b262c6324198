import { randomUUID } from "node:crypto";

/**
 * Names for other machines' activations that the renderer may hold: a random UUID per activation id, the
 * same for as long as the session lives. The renderer frees a seat by its name; the session maps it back
 * only through the machines it currently shows, so a stale or made-up name frees nothing.
 */
export function seatIds() {
  const names = new Map<string, string>();
  return (activationId: string): string => {
    let name = names.get(activationId);
    if (!name) {
      name = randomUUID();
      names.set(activationId, name);
    }
    return name;
  };
}
