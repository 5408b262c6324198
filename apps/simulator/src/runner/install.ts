import type { LicenseClientCore } from "@licensing/client";
import type { Machine } from "../runtime/machine.ts";
import { SimulatedNetwork } from "../runtime/network.ts";

/**
 * The program installed on one computer: its folder (the license file and the SDK's cache beside it), the
 * machine it runs on, its network, its clock, and the client while the program runs. A scenario has a main
 * install; `on <machine>` steps make others, one per machine.
 */
export class Install {
  readonly network = new SimulatedNetwork();
  /** This computer's clock minus the true time. */
  clockOffset = 0;
  client: LicenseClientCore | null = null;
  lastInitialize: boolean | null = null;

  constructor(
    /** How timeline rows name it: null for the main program, else the machine it was made on. */
    readonly name: string | null,
    /** The hardware the next start reads (`use-machine` moves the main program to another). */
    public machine: Machine,
    readonly folder: string,
    readonly licensePath: string,
  ) {}
}
