import { z } from "zod";

/**
 * The sample app's settings, read once at start from its command line and environment (the app's
 * equivalent of the server's env.ts; decision 0033). A product would build its server and key in.
 */
const Env = z.object({
  LICENSING_SERVER_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
  LICENSING_PUBLIC_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "64 hex characters (the template's Ed25519 public key)")
    .transform((key) => key.toLowerCase())
    .optional(),
  LICENSING_QA: z
    .enum(["0", "1", "true", "false"])
    .transform((value) => value === "1" || value === "true")
    .default(false),
  LICENSING_DESKTOP_DATA_DIR: z.string().min(1).optional(),
});

export interface DesktopConfig {
  serverUrl: string;
  publicKey: string | null;
  qa: boolean;
  /** Overrides Electron's userData folder (two instances side by side). */
  dataDir: string | null;
}

/** `--qa`, `--server-url=…`, `--public-key=…` win over `LICENSING_QA`, `LICENSING_SERVER_URL`, `LICENSING_PUBLIC_KEY`. */
export function desktopConfig(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): DesktopConfig {
  const flag = (name: string) => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const parsed = Env.safeParse({
    ...env,
    ...(flag("server-url") !== undefined && { LICENSING_SERVER_URL: flag("server-url") }),
    ...(flag("public-key") !== undefined && { LICENSING_PUBLIC_KEY: flag("public-key") }),
    ...(argv.includes("--qa") && { LICENSING_QA: "1" }),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid ${String(issue.path[0])}: ${issue.message}`);
  }
  const values = parsed.data;
  return {
    serverUrl: values.LICENSING_SERVER_URL.replace(/\/+$/, ""),
    publicKey: values.LICENSING_PUBLIC_KEY ?? null,
    qa: values.LICENSING_QA,
    dataDir: values.LICENSING_DESKTOP_DATA_DIR ?? null,
  };
}
