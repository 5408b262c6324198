import type {
  ActivationResponse,
  HwBinding,
  LicenseIssueResponse,
  LicenseLeaseResponse,
  OfflineActivationResult,
  OfflineDeactivationResult,
  RevocationListResponse,
  SigningKeyResponse,
} from "@licensing/contracts";
import type { LicenseTermsInput } from "../scenario/parse.ts";
import type { PanelApi } from "./panel-api.ts";
import { SimulatorError } from "./panel-api.ts";

export type Rebind = { fingerprint: string | null; binding: HwBinding | null };

/**
 * The server a scenario runs against: the in-process one (`local`, whose clock the simulator owns) or a
 * deployed one (`remote`). License actions go through the panel REST API as an Admin in both cases.
 */
export interface Backend {
  readonly kind: "local" | "remote";
  readonly url: string;
  /**
   * Sets the server up for the next scenario: the in-process server's clock goes to `start`, its heartbeat
   * interval to the scenario's, and the scenario gets a template of its own (so a key rotation or a
   * revocation list of one scenario never reaches another); a deployed server keeps its own clock and the
   * template it was given.
   */
  prepare(scenario: { start: number; heartbeatIntervalSeconds: number }): Promise<void>;
  /** The server's time now (epoch ms). */
  serverNow(): number;
  /** Moves the server's clock (local only). */
  advanceServer(ms: number): void;
  /**
   * Runs the server's background jobs (sweepers, purge, analytics) on the virtual clock (local only): every
   * one with `all`, else those whose interval of virtual time has passed since they last ran.
   */
  runJobs(all: boolean): Promise<void>;
  /** The scenario's license actions, on its template. */
  readonly licenses: LicenseActions;
  /** The signing keys of the scenario's template. */
  readonly keys: SigningKeys;
  close(): Promise<void>;
}

/** What an Admin does to the scenario's license, over the panel API. */
export class LicenseActions {
  private transferTarget: string | null = null;

  constructor(
    private readonly api: PanelApi,
    private readonly companyId: string,
    readonly templateId: string,
  ) {}

  /** `fingerprint`: the machine a `fixed` license is bound to. */
  issue(terms: LicenseTermsInput, fingerprint: string, now: number): Promise<LicenseIssueResponse> {
    const config = { ...terms.config, features: terms.features, limits: terms.limits };
    const { fingerprintMatch, maxNewDevicesPerWindow, newDeviceWindowDays, revocation } = terms;
    const { seatModel, leaseSeconds, maxBorrowDays } = terms;
    return this.api.post<LicenseIssueResponse>("/licenses", {
      companyId: this.companyId,
      templateId: this.templateId,
      config: JSON.stringify(config),
      expiresAt: new Date(now + terms.validFor).toISOString(),
      offlineDays: terms.offlineDays,
      isTrial: terms.trial,
      hwBinding: terms.binding,
      hwFingerprint: terms.binding === "fixed" ? fingerprint : null,
      // Absent: the template's terms.
      ...(fingerprintMatch === undefined ? {} : { fingerprintMatch }),
      ...(maxNewDevicesPerWindow === undefined ? {} : { maxNewDevicesPerWindow }),
      ...(newDeviceWindowDays === undefined ? {} : { newDeviceWindowDays }),
      ...(revocation === undefined ? {} : { revocation }),
      ...(seatModel === undefined ? {} : { seatModel }),
      ...(leaseSeconds === undefined ? {} : { leaseSeconds }),
      ...(maxBorrowDays === undefined ? {} : { maxBorrowDays }),
    });
  }

  /** The license file as the panel's download gives it. */
  download = (id: string) => this.api.text(`/licenses/${id}/download`);
  get = (id: string) => this.api.get<Record<string, unknown>>(`/licenses/${id}`);
  revoke = (id: string, reason: string | null) =>
    this.api.post(`/licenses/${id}/revoke`, reason === null ? {} : { reason });
  suspend = (id: string) => this.api.post(`/licenses/${id}/suspend`);
  resume = (id: string) => this.api.post(`/licenses/${id}/resume`);
  /** The license's activations, live ones first (the panel's list). */
  activations = (id: string) => this.api.get<ActivationResponse[]>(`/licenses/${id}/activations`);
  resetActivation = (id: string, activationId: string) =>
    this.api.post(`/licenses/${id}/activations/${activationId}/reset`);
  /** The live leases of a floating license (the panel's list), soonest to expire first. */
  leases = (id: string) => this.api.get<LicenseLeaseResponse[]>(`/licenses/${id}/leases`);
  /** An Admin releases a lease now (live or expired): its holder's next renew answers 410. */
  forceRelease = (leaseId: string) => this.api.delete(`/leases/${leaseId}`);
  resetDeviceBudget = (id: string) => this.api.post(`/licenses/${id}/device-budget/reset`);
  rebind = (id: string, { fingerprint, binding }: Rebind) =>
    this.api.post(`/licenses/${id}/rebind`, {
      hwFingerprint: fingerprint,
      ...(binding === null ? {} : { hwBinding: binding }),
      reason: "licensing-sim",
    });

  /** An Admin answers a machine's air-gapped activation request in the panel. */
  offlineActivate = (id: string, request: string, validDays: number | null) =>
    this.api.post<OfflineActivationResult>(`/licenses/${id}/offline-activations`, {
      request,
      ...(validDays === null ? {} : { validDays }),
    });
  /** An Admin hands in a machine's offline deactivation receipt. */
  offlineDeactivate = (receipt: string) =>
    this.api.post<OfflineDeactivationResult>("/offline-deactivations", { receipt });

  /**
   * The template's revocation list as the vendor downloads it (the public `GET /client/revocations`), every
   * page of the licenses revoked at or after `since` (ISO).
   */
  async revocationLists(since: string): Promise<string[]> {
    const lists: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ templateId: this.templateId, since });
      if (cursor !== null) query.set("cursor", cursor);
      const { list } = await this.api.client<RevocationListResponse>(`/revocations?${query}`);
      lists.push(list);
      cursor = nextCursor(list);
    } while (cursor !== null);
    return lists;
  }

  /** Transfers to a child company of the Admin's, created on first use. */
  async transfer(id: string) {
    this.transferTarget ??= (
      await this.api.post<{ id: string }>("/companies", {
        name: "licensing-sim transfer target",
        slug: `licensing-sim-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        parentId: this.companyId,
      })
    ).id;
    return this.api.post(`/licenses/${id}/transfer`, { newCompanyId: this.transferTarget });
  }
}

/** The `next` cursor in a revocation list's payload (the JWS's middle segment); null on the last page. */
function nextCursor(list: string): string | null {
  const payload = JSON.parse(Buffer.from(list.split(".")[1] ?? "", "base64url").toString("utf8")) as {
    next?: unknown;
  };
  return typeof payload.next === "string" ? payload.next : null;
}

/**
 * The signing keys of the scenario's template, numbered in the order they were made: 1 is the root, the key
 * programs are built with, then one per rotation. Rotating and retiring need an operator (the in-process
 * server's); against a deployed server they are refused.
 */
export class SigningKeys {
  /** Key ids in the order they were made; the first is the root. */
  private ids: string[] | null = null;

  constructor(
    private readonly reader: PanelApi,
    private readonly templateId: string,
    private readonly operator: PanelApi | null,
  ) {}

  private list = () => this.reader.get<SigningKeyResponse[]>(`/templates/${this.templateId}/signing-keys`);

  /**
   * The keys as made. A template's first key is its root; the keys are made one after another on a server's
   * clock, so the oldest is the root (on the in-process server each scenario's template starts with its one
   * key, and the rotations are numbered as they happen).
   */
  private async known(): Promise<string[]> {
    this.ids ??= (await this.list())
      .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))
      .map((key) => key.id);
    return this.ids;
  }

  /** The root key: its id and hex public key, what a program of this template is built with. */
  async root(): Promise<{ id: string; publicKeyHex: string }> {
    const [rootId] = await this.known();
    const root = (await this.list()).find((key) => key.id === rootId);
    if (!root)
      throw new SimulatorError("simulator.keys", `The template ${this.templateId} has no signing key`);
    return { id: root.id, publicKeyHex: root.publicKeyHex };
  }

  /** A key's number (1 is the root), or null for a key this template did not make. */
  async numberOf(id: string): Promise<number | null> {
    const index = (await this.known()).indexOf(id);
    return index < 0 ? null : index + 1;
  }

  /** Rotates the template's key; returns the new key's number. */
  async rotate(): Promise<number> {
    const ids = await this.known();
    const key = await this.operatorApi().post<SigningKeyResponse>(
      `/templates/${this.templateId}/signing-keys/rotate`,
    );
    ids.push(key.id);
    return ids.length;
  }

  /** Retires key `number`, by default the one the latest rotation replaced; returns its number. */
  async retire(number: number | null): Promise<number> {
    const ids = await this.known();
    const which = number ?? ids.length - 1;
    const id = ids[which - 1];
    if (id === undefined)
      throw new SimulatorError(
        "simulator.step",
        which < 1
          ? "the template has one key, its root, which is Active: rotate-key first"
          : `the template has ${ids.length} keys; there is no key ${which}`,
      );
    await this.operatorApi().post(`/templates/${this.templateId}/signing-keys/${id}/retire`);
    return which;
  }

  private operatorApi(): PanelApi {
    if (!this.operator)
      throw new SimulatorError(
        "simulator.remote",
        "Rotating or retiring a template's key needs an operator: the in-process server's",
      );
    return this.operator;
  }
}

export const localOnly = (what: string) =>
  new SimulatorError(
    "simulator.remote",
    `${what} needs the in-process server's clock; against --server-url only this machine's clock moves`,
  );
