/** A failure the CLI reports as it is, in one sentence. */
export class CodegenError extends Error {}

interface Template {
  id: string;
  productCode: string;
  currentVersionId: string | null;
}
interface Version {
  id: string;
  version: number;
  configSchema: string;
}

export interface TemplateSchemaRequest {
  serverUrl: string;
  /** A personal access token (`svc_pat_…`). */
  token: string;
  /** The template's product code (any case, as the server compares it). */
  productCode: string;
  /** The version number; default: the template's current version. */
  version?: number;
  fetch?: typeof globalThis.fetch;
}

export interface TemplateSchema {
  productCode: string;
  version: number;
  schema: unknown;
}

/**
 * A template version's configSchema over the panel's REST API: `GET /api/v1/panel/templates` to find the
 * product code, then `GET …/templates/{id}/versions` for the version asked for, or the current one.
 */
export async function templateSchema(request: TemplateSchemaRequest): Promise<TemplateSchema> {
  const base = `${request.serverUrl.replace(/\/+$/, "")}/api/v1/panel`;
  const get = async <T>(path: string): Promise<T> => {
    const doFetch = request.fetch ?? globalThis.fetch;
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, { headers: { authorization: `Bearer ${request.token}` } });
    } catch (error) {
      const cause = (error as { cause?: { message?: string } }).cause?.message ?? String(error);
      throw new CodegenError(`Cannot reach ${request.serverUrl}: ${cause}`);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new CodegenError(
        `GET ${base}${path} answered ${res.status} with no JSON: is the server URL right?`,
      );
    }
    if (!res.ok) {
      const { code, message } = body as { code?: string; message?: string };
      throw new CodegenError(`GET ${base}${path} answered ${res.status} ${code ?? ""}: ${message ?? text}`);
    }
    return body as T;
  };

  const templates = await get<Template[]>("/templates");
  const wanted = request.productCode.toLowerCase();
  const template = templates.find((t) => t.productCode.toLowerCase() === wanted);
  if (!template) {
    throw new CodegenError(
      `No template with product code ${request.productCode}; the token sees ${templates.map((t) => t.productCode).join(", ") || "none"}`,
    );
  }
  const versions = await get<Version[]>(`/templates/${template.id}/versions`);
  const version =
    request.version === undefined
      ? versions.find((v) => v.id === template.currentVersionId)
      : versions.find((v) => v.version === request.version);
  if (!version) {
    throw new CodegenError(
      request.version === undefined
        ? `${template.productCode} has no version yet: its licenses carry an empty config`
        : `${template.productCode} has no version ${request.version}; it has ${versions.map((v) => v.version).join(", ") || "none"}`,
    );
  }
  return {
    productCode: template.productCode,
    version: version.version,
    schema: JSON.parse(version.configSchema) as unknown,
  };
}
