import type { LicenseClientCore } from "@licensing/client";
import type { Machine } from "../runtime/machine.ts";
import { SimulatedNetwork } from "../runtime/network.ts";

export interface OfflineExchange {
  /** The latest request the program made, and its length (at most 1,200: one QR code). */
  request: string | null;
  requestLength: number | null;
  /** The panel's latest response to this machine's request, and the activation it made. */
  response: string | null;
  activationId: string | null;
  /** Why the program refused the response it was given last (`other-machine`, …); null when it applied. */
  refused: string | null;
  /** The receipt of the latest offline deactivation. */
  receipt: string | null;
}

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
  /** The client's requests counted by the last `expect requests` of this machine. */
  requestsChecked = 0;
  /**
   * This machine's air-gapped exchange: the blocks a person carries between it and the panel, and what became
   * of them (`expect offline.<path>`).
   */
  offline: OfflineExchange = {
    request: null,
    requestLength: null,
    response: null,
    activationId: null,
    refused: null,
    receipt: null,
  };

  constructor(
    /** How timeline rows name it: null for the main program, else the machine it was made on. */
    readonly name: string | null,
    /** The hardware the next start reads (`use-machine` moves the main program to another). */
    public machine: Machine,
    readonly folder: string,
    readonly licensePath: string,
  ) {}
}
