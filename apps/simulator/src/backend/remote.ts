import { LicenseActions, localOnly, SigningKeys, type Backend } from "./backend.ts";
import { PanelApi, SimulatorError } from "./panel-api.ts";

export interface RemoteServerOptions {
  url: string;
  /** A personal access token (`svc_pat_…`) of an Admin of the company the licenses are issued to. */
  token: string;
  /** The template to issue from; default the first active one the token can see. */
  templateId?: string | undefined;
}

/** A deployed server: its clock is real and stays where it is; licenses are issued to the token's company. */
export async function connectRemoteServer(options: RemoteServerOptions): Promise<Backend> {
  if (!options.token.startsWith("svc_pat_"))
    throw new SimulatorError("simulator.usage", "--token must be a personal access token (svc_pat_…)");
  const url = options.url.replace(/\/+$/, "");
  const api = new PanelApi(url, options.token);
  const me = await api.get<{ companyId: string | null }>("/auth/me");
  if (!me.companyId)
    throw new SimulatorError(
      "simulator.usage",
      "The token belongs to no company: use a company's Admin token",
    );
  let templateId = options.templateId;
  if (!templateId) {
    const templates = await api.get<{ id: string; status: string }[]>("/templates?status=Active");
    templateId = templates[0]?.id;
    if (!templateId)
      throw new SimulatorError("simulator.usage", "The server has no active template: pass --template-id");
  }
  return {
    kind: "remote",
    url,
    prepare: async () => {},
    serverNow: () => Date.now(),
    advanceServer: () => {
      throw localOnly("Moving the server's clock");
    },
    runJobs: () => Promise.reject(localOnly("Running the server's jobs")),
    licenses: new LicenseActions(api, me.companyId, templateId),
    // The keys are read, never changed: rotating a deployed template's key is not a test's to do.
    keys: new SigningKeys(api, templateId, null),
    close: async () => {},
  };
}
