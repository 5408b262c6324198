import {
  FingerprintMatch,
  HwBinding,
  LeaseSeconds,
  MaxBorrowDays,
  MaxNewDevicesPerWindow,
  NewDeviceWindowDays,
  RevocationMode,
  SeatModel,
} from "@licensing/contracts";
import { isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { parseDuration } from "./duration.ts";
import { parseStep, type Step } from "./steps.ts";

const Duration = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === null || ms <= 0) {
    ctx.addIssue({ code: "custom", message: `"${text}" is not a positive duration (e.g. 90d, 1h)` });
    return z.NEVER;
  }
  return ms;
});

const Instant = z.union([z.date(), z.string()]).transform((value, ctx) => {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: "custom", message: `"${String(value)}" is not an ISO time` });
    return z.NEVER;
  }
  return ms;
});

/** The license a scenario starts with: issued by an Admin, downloaded, written to a temporary folder. */
const LicenseTerms = z
  .object({
    /** The marker's lifetime: how long the client may stay offline. */
    offlineDays: z.int().min(1).default(7),
    /** The token's hard expiry, from the scenario's start. */
    validFor: Duration.prefault("365d"),
    trial: z.boolean().default(false),
    /** `fixed` pins the license to the scenario's `machine`. */
    binding: HwBinding.default("none"),
    /** How far a machine may drift and still be recognised; absent: the template's (`fuzzy`). */
    fingerprintMatch: FingerprintMatch.optional(),
    /** The device budget: new devices per window; absent or null: no limit. */
    maxNewDevicesPerWindow: MaxNewDevicesPerWindow.optional(),
    /** The device budget's window; absent: the template's (30). */
    newDeviceWindowDays: NewDeviceWindowDays.optional(),
    /** How a revocation reaches the machines: `graceful` (rule 5) or `immediate`; absent: the template's (graceful). */
    revocation: RevocationMode.optional(),
    /** `nodeLocked` (a seat per activated machine) or `floating` (a seat per live lease); absent: the template's. */
    seatModel: SeatModel.optional(),
    /** A floating seat's lease, in seconds (60..86,400); absent: the template's (900). */
    leaseSeconds: LeaseSeconds.optional(),
    /** How many days ahead a floating seat may be borrowed (0..30, 0: never); absent: the template's (0). */
    maxBorrowDays: MaxBorrowDays.optional(),
    features: z.array(z.string()).default([]),
    limits: z.record(z.string(), z.unknown()).default({}),
    /** Further members of the license's config. */
    config: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

const Header = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** When the scenario starts (in-process server only): the shared clock's first reading. */
    start: Instant.prefault("2026-01-01T00:00:00Z"),
    /** The machine the program runs on: its name, from which its hardware (the fingerprint sources) derives. */
    machine: z.string().regex(/^\S+$/, "a machine name is one word").default("sim-machine-a"),
    /** The SDK's fingerprintVersion option; absent: the SDK's choice (2 for a new install). */
    fingerprintVersion: z.union([z.literal(1), z.literal(2)]).optional(),
    /** The server's heartbeat interval (in-process server only; clients keep it within 30 s..24 h). */
    heartbeatInterval: Duration.prefault("15m"),
    /** Whether quitting the application deactivates it (the SDK option; the spec's default is true). */
    deactivateOnDispose: z.boolean().default(true),
    license: LicenseTerms.prefault({}),
    steps: z.array(z.unknown()).min(1, "a scenario needs at least one step"),
  })
  .strict();

export type LicenseTermsInput = z.infer<typeof LicenseTerms>;

export interface ScenarioStep {
  step: Step;
  /** The step as written. */
  text: string;
  /** 1-based line in the scenario file. */
  line: number;
}

export interface Scenario extends Omit<z.infer<typeof Header>, "steps"> {
  file: string;
  steps: ScenarioStep[];
}

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly problem: string,
  ) {
    super(`${file}${line === null ? "" : `:${line}`}: ${problem}`);
  }
}

/** A scenario file's text as a `Scenario`; throws a `ScenarioError` naming the file and line of the first problem. */
export function parseScenario(text: string, file: string): Scenario {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineOf = (offset: number | undefined) => (offset === undefined ? null : lines.linePos(offset).line);
  const yamlError = document.errors[0];
  if (yamlError) throw new ScenarioError(file, lineOf(yamlError.pos[0]), yamlError.message.split("\n")[0]!);

  const header = Header.safeParse(document.toJS());
  if (!header.success) {
    const issue = header.error.issues[0]!;
    const node = document.getIn(issue.path as (string | number)[], true) as { range?: number[] } | undefined;
    const top = document.get(issue.path[0] as string, true) as { range?: number[] } | undefined;
    const line = lineOf(node?.range?.[0]) ?? lineOf(top?.range?.[0]);
    const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
    throw new ScenarioError(file, line, `${where}${issue.message}`);
  }

  const stepsNode = document.get("steps", true);
  const steps: ScenarioStep[] = [];
  if (!isSeq(stepsNode)) throw new ScenarioError(file, null, "steps must be a list");
  for (const item of stepsNode.items) {
    const line = lineOf((item as { range?: number[] }).range?.[0]) ?? 0;
    if (!isScalar(item) || typeof item.value !== "string")
      throw new ScenarioError(file, line, "each step is one line of text, e.g. - advance 3d");
    const step = parseStep(item.value);
    if (typeof step === "string") throw new ScenarioError(file, line, step);
    steps.push({ step, text: item.value.trim().replace(/\s+/g, " "), line });
  }
  const { steps: _steps, ...rest } = header.data;
  return { ...rest, file, steps };
}
