import type { ActivationResponse, HwBinding, LicenseIssueResponse } from "@licensing/contracts";
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
   * Sets the server up for the next scenario: the in-process server's clock goes to `start` and its
   * heartbeat interval to the scenario's; a deployed server keeps its own (its clock is real).
   */
  prepare(scenario: { start: number; heartbeatIntervalSeconds: number }): void;
  /** The server's time now (epoch ms). */
  serverNow(): number;
  /** Moves the server's clock (local only). */
  advanceServer(ms: number): void;
  /**
   * Runs the server's background jobs (sweepers, purge, analytics) on the virtual clock (local only): every
   * one with `all`, else those whose interval of virtual time has passed since they last ran.
   */
  runJobs(all: boolean): Promise<void>;
  readonly licenses: LicenseActions;
  close(): Promise<void>;
}

/** What an Admin does to the scenario's license, over the panel API. */
export class LicenseActions {
  private transferTarget: string | null = null;

  constructor(
    private readonly api: PanelApi,
    private readonly companyId: string,
    private readonly templateId: string,
  ) {}

  /** `fingerprint`: the machine a `fixed` license is bound to. */
  issue(terms: LicenseTermsInput, fingerprint: string, now: number): Promise<LicenseIssueResponse> {
    const config = { ...terms.config, features: terms.features, limits: terms.limits };
    const { fingerprintMatch, maxNewDevicesPerWindow, newDeviceWindowDays } = terms;
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
  resetDeviceBudget = (id: string) => this.api.post(`/licenses/${id}/device-budget/reset`);
  rebind = (id: string, { fingerprint, binding }: Rebind) =>
    this.api.post(`/licenses/${id}/rebind`, {
      hwFingerprint: fingerprint,
      ...(binding === null ? {} : { hwBinding: binding }),
      reason: "licensing-sim",
    });

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

export const localOnly = (what: string) =>
  new SimulatorError(
    "simulator.remote",
    `${what} needs the in-process server's clock; against --server-url only this machine's clock moves`,
  );
