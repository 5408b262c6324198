import { CLIENT_STATUSES, type ClientStatus } from "@licensing/client";
import { HwBinding, OfflineActivationBody } from "@licensing/contracts";
import { COMPONENT_KINDS, isComponentKind, type ComponentKind } from "../runtime/machine.ts";
import { parseDuration } from "./duration.ts";

/** Points in the license's life that `advance to` can aim at, read from the client's `statusDetails`. */
export const ANCHORS = {
  "marker-exp": "markerExpiresAt",
  "grace-end": "graceEndsAt",
  "token-exp": "tokenExpiresAt",
  "next-transition": "nextTransitionAt",
  "next-heartbeat": "nextHeartbeatAt",
  "retry-at": "retryAt",
  "certificate-exp": "certificateExpiresAt",
  "lease-exp": "leaseExpiresAt",
} as const;
export type Anchor = keyof typeof ANCHORS;

/** An expected value written `fingerprint(<machine>)`: that machine's fingerprint when the check runs. */
export class MachineFingerprint {
  constructor(readonly machine: string) {}
}

/**
 * What the license's activations on the server are counted for: live ones, all of them, their heals; and its
 * live leases (a floating license's seats in use, the panel's lease list).
 */
export const COUNTS = ["seats", "activations", "heals", "leases"] as const;
export type Count = (typeof COUNTS)[number];

export type ValueSource = "config" | "details" | "license" | "server" | "activation" | "offline";

/** The files whose signing key `expect signer` names: the license file's token, the cached marker. */
export const SIGNED_FILES = ["license", "marker"] as const;
export type SignedFile = (typeof SIGNED_FILES)[number];

/**
 * What a network attacker answers in `forge-revocation`: a revocation signed by a key the program does not
 * trust (naming the root's key id), or a bare `license.revoked` without one.
 */
export const FORGERIES = ["other-key", "unsigned"] as const;
export type Forgery = (typeof FORGERIES)[number];

export type ExpectTarget =
  | { kind: "status"; status: ClientStatus }
  | { kind: "usable"; value: boolean }
  | { kind: "initialized"; value: boolean }
  | { kind: "feature"; name: string; present: boolean }
  | { kind: "count"; what: Count; value: number }
  | { kind: "requests"; value: number }
  | { kind: "holders"; value: number }
  | { kind: "signer"; file: SignedFile; key: number }
  | { kind: "value"; source: ValueSource; path: string; value: unknown };

export type Step =
  | { kind: "start" }
  | { kind: "stop" }
  | { kind: "restart" }
  | { kind: "online" }
  | { kind: "offline" }
  | { kind: "server-errors"; status: number; retryAfterMs: number | null }
  | { kind: "advance"; by: number }
  | { kind: "advance-to"; anchor: Anchor; offset: number }
  | { kind: "set-clock"; to: { at: number } | { offset: number } | "reset" }
  | { kind: "use-machine"; machine: string }
  | { kind: "heartbeat" }
  | { kind: "revoke"; reason: string | null }
  | { kind: "suspend" }
  | { kind: "resume" }
  | { kind: "rebind"; machine: string | null; binding: HwBinding | null }
  | { kind: "transfer" }
  | { kind: "download-license" }
  | { kind: "delete-license" }
  | { kind: "corrupt-license" }
  | { kind: "delete-marker" }
  | { kind: "corrupt-marker" }
  | { kind: "sweep" }
  | { kind: "change-component"; component: ComponentKind; value: string | null }
  | { kind: "add-component"; component: ComponentKind; value: string | null }
  | { kind: "remove-component"; component: ComponentKind }
  | { kind: "upgrade-os"; major: number | null }
  | { kind: "reinstall" }
  | { kind: "reset-activation"; machine: string | null }
  | { kind: "reset-device-budget" }
  | { kind: "deactivate-machine"; machine: string }
  | { kind: "offline-request" }
  | { kind: "offline-respond"; validDays: number | null }
  | { kind: "offline-apply"; from: string | null }
  | { kind: "offline-deactivate" }
  | { kind: "offline-hand-in-receipt"; from: string | null }
  | { kind: "forge-revocation"; forgery: Forgery }
  | { kind: "apply-revocation-list"; forged: boolean }
  | { kind: "rotate-key" }
  | { kind: "retire-key"; key: number | null }
  | { kind: "crash" }
  | { kind: "sleep" }
  | { kind: "wake" }
  | { kind: "force-release"; machine: string | null }
  | { kind: "borrow"; for: number }
  | { kind: "return-borrowed" }
  | { kind: "on"; machine: string; step: Step }
  | { kind: "expect"; target: ExpectTarget };

export type StepKind = Step["kind"];

/**
 * How a step behaves against a deployed server (`--server-url`), where only the client's clock can move:
 * `ok`, `client-offline` (allowed only while the client cannot reach the server: otherwise the server
 * would have to live through the same time), or `refused`.
 */
export type RemoteRule = "ok" | "client-offline" | "refused";

interface StepSpec {
  /** The first word(s) of the step. */
  name: string;
  usage: string;
  summary: string;
  remote: RemoteRule;
  /** A step of one machine's program (or hardware), which `on <machine>` can run on another computer. */
  perMachine: boolean;
  /** The step from its arguments, or the reason they are wrong. */
  parse(args: string[]): Step | string;
}

const noArgs =
  (step: Step) =>
  (args: string[]): Step | string =>
    args.length === 0 ? step : `takes no arguments, got "${args.join(" ")}"`;

function durationArg(text: string | undefined, what: string): number | string {
  if (text === undefined) return `needs ${what}, e.g. 3d, 90m, 7d-1s`;
  const ms = parseDuration(text);
  return ms === null ? `"${text}" is not a duration (e.g. 3d, 90m, 24h+1s, 7d-1s)` : ms;
}

/**
 * "true"/"false", JSON (numbers, null, quoted strings, arrays, objects), `fingerprint(<machine>)`, or else
 * the text as a string.
 */
export function parseValue(text: string): unknown {
  const fingerprint = /^fingerprint\((\S+)\)$/.exec(text);
  if (fingerprint) return new MachineFingerprint(fingerprint[1]!);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseExpect(args: string[]): Step | string {
  const [what, ...rest] = args;
  const text = rest.join(" ");
  const expect = (target: ExpectTarget): Step => ({ kind: "expect", target });
  switch (what) {
    case undefined:
      return "needs what to check: status, usable, initialized, feature, no-feature, config, seats, activations, heals, leases, holders, requests, signer, details.…, license.…, server.…, activation.…, offline.…";
    case "status": {
      const status = CLIENT_STATUSES.find((s) => s === text);
      return status
        ? expect({ kind: "status", status })
        : `status must be one of ${CLIENT_STATUSES.join(", ")}, got "${text}"`;
    }
    case "usable":
    case "initialized":
      return text === "true" || text === "false"
        ? expect({ kind: what, value: text === "true" })
        : `${what} must be true or false, got "${text}"`;
    case "feature":
    case "no-feature":
      return rest.length === 1
        ? expect({ kind: "feature", name: rest[0]!, present: what === "feature" })
        : `${what} needs one feature name`;
    case "config": {
      const [path, ...value] = rest;
      return path && value.length > 0
        ? expect({ kind: "value", source: "config", path, value: parseValue(value.join(" ")) })
        : "config needs a dotted path and a value, e.g. expect config limits.maxSeats 3";
    }
    case "seats":
    case "activations":
    case "heals":
    case "leases": {
      const value = Number(text);
      return rest.length === 1 && Number.isInteger(value) && value >= 0
        ? expect({ kind: "count", what, value })
        : `${what} needs a count, e.g. expect ${what} 1`;
    }
    case "requests":
    case "holders": {
      const value = Number(text);
      return rest.length === 1 && Number.isInteger(value) && value >= 0
        ? expect({ kind: what, value })
        : `${what} needs a count, e.g. expect ${what} ${what === "requests" ? 0 : 3}`;
    }
    case "signer": {
      const [file, key] = rest;
      const number = keyNumber(key);
      return rest.length === 2 && SIGNED_FILES.some((f) => f === file) && typeof number === "number"
        ? expect({ kind: "signer", file: file as SignedFile, key: number })
        : `signer needs ${SIGNED_FILES.join(" or ")} and a key (root, or its number: 1 is the root, 2 the first rotation's), e.g. expect signer marker 2`;
    }
    default: {
      const match = /^(details|license|server|activation|offline)\.(.+)$/.exec(what);
      if (!match) return `cannot check "${what}"`;
      if (rest.length === 0) return `${what} needs a value to compare with`;
      return expect({
        kind: "value",
        source: match[1] as ValueSource,
        path: match[2]!,
        value: parseValue(text),
      });
    }
  }
}

/** A signing key as steps name it: `root`, or its number in the order the template made them (1 is the root). */
function keyNumber(text: string | undefined): number | string {
  if (text === "root") return 1;
  const number = Number(text);
  return text !== undefined && /^\d+$/.test(text) && number >= 1
    ? number
    : `a key is root or its number (1 is the root, 2 the first rotation's), got "${text ?? ""}"`;
}

/** `from <machine>`: the blocks another machine's program made; null for this one's. */
function fromArg(args: string[]): string | null | { problem: string } {
  if (args.length === 0) return null;
  return args.length === 2 && args[0] === "from" ? args[1]! : { problem: "takes nothing or from <machine>" };
}

function componentArg(text: string | undefined): ComponentKind | string {
  return text !== undefined && isComponentKind(text)
    ? text
    : `the component must be one of ${COMPONENT_KINDS.join(", ")}, got "${text ?? ""}"`;
}

function componentStep(kind: "change-component" | "add-component", args: string[]): Step | string {
  if (args.length < 1 || args.length > 2) return "needs a component and optionally its new value";
  const component = componentArg(args[0]);
  if (!isComponentKind(component)) return component;
  return { kind, component, value: args[1] ?? null };
}

/** Every step, in the order `--help` lists them. One home for each step's syntax, help and remote rule. */
export const STEP_SPECS: StepSpec[] = [
  {
    name: "start",
    usage: "start",
    summary:
      "Starts the application: a new LicenseClient on the license file, then initialize(). The timeline shows its result.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "start" }),
  },
  {
    name: "stop",
    usage: "stop",
    summary:
      "Quits the application: dispose() (deactivates best-effort unless deactivateOnDispose is false).",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "stop" }),
  },
  {
    name: "restart",
    usage: "restart",
    summary: "stop, then start: a new LicenseClient on the same files (cached marker, state).",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "restart" }),
  },
  {
    name: "online",
    usage: "online",
    summary: "The network works again: requests reach the server.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "online" }),
  },
  {
    name: "offline",
    usage: "offline",
    summary: "No network: every request fails as fetch does when nothing answers.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "offline" }),
  },
  {
    name: "server-errors",
    usage: "server-errors <status> [retry-after <duration>]",
    summary:
      "Every request is answered with this HTTP status (5xx or 429), optionally with Retry-After. `online` ends it.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      const status = Number(args[0]);
      if (!Number.isInteger(status) || !(status === 429 || (status >= 500 && status <= 599)))
        return `needs a 5xx status or 429, got "${args[0] ?? ""}"`;
      if (args.length === 1) return { kind: "server-errors", status, retryAfterMs: null };
      if (args[1] !== "retry-after" || args.length !== 3)
        return "takes a status and optionally `retry-after <duration>`";
      const retryAfter = durationArg(args[2], "a Retry-After duration");
      if (typeof retryAfter === "string") return retryAfter;
      if (retryAfter < 0) return "retry-after cannot be negative";
      return { kind: "server-errors", status, retryAfterMs: retryAfter };
    },
  },
  {
    name: "advance",
    usage: `advance <duration> | advance to <${Object.keys(ANCHORS).join("|")}> [±<duration>]`,
    summary:
      "Time passes: the shared clock moves (server, sweepers and clients); heartbeats, retries and status changes happen on the way. `advance to marker-exp -1s` stops one second before the marker expires; `next-heartbeat` is the next heartbeat or activation attempt, `retry-at` when a device budget lets a new device in or a floating seat may free, `lease-exp` when the floating seat's lease ends unless renewed (the program's statusDetails).",
    remote: "client-offline",
    perMachine: false,
    parse(args) {
      if (args[0] === "to") {
        const anchor = args[1] as Anchor | undefined;
        if (!anchor || !(anchor in ANCHORS))
          return `advance to needs one of ${Object.keys(ANCHORS).join(", ")}, got "${args[1] ?? ""}"`;
        const offsetText = args.slice(2).join("");
        if (offsetText === "") return { kind: "advance-to", anchor, offset: 0 };
        const offset = durationArg(offsetText, "an offset");
        return typeof offset === "string" ? offset : { kind: "advance-to", anchor, offset };
      }
      const by = durationArg(args.join("") || undefined, "a duration");
      if (typeof by === "string") return by;
      if (by < 0) return "time only moves forward: use set-clock to turn this machine's clock back";
      return { kind: "advance", by };
    },
  },
  {
    name: "set-clock",
    usage: "set-clock <ISO time> | set-clock ±<duration> | set-clock reset",
    summary:
      "Sets this machine's clock only (the client's), not the server's: a time, an offset from the true time (set-clock -2d rolls it back, set-clock +10m skews it), or reset.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      const text = args.join("");
      if (text === "reset") return { kind: "set-clock", to: "reset" };
      if (/^[+-]/.test(text)) {
        const offset = durationArg(text, "an offset");
        return typeof offset === "string" ? offset : { kind: "set-clock", to: { offset } };
      }
      const at = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
      return Number.isNaN(at)
        ? `needs an ISO time (2026-03-01T00:00:00Z), an offset (-2d, +10m) or reset, got "${text}"`
        : { kind: "set-clock", to: { at } };
    },
  },
  {
    name: "use-machine",
    usage: "use-machine <machine>",
    summary:
      "The machine the next start runs on (the scenario's `machine` until then): the program and its files move to another computer, whose hardware is derived from its name.",
    remote: "ok",
    perMachine: false,
    parse: (args) =>
      args.length === 1 ? { kind: "use-machine", machine: args[0]! } : "needs one machine name",
  },
  {
    name: "heartbeat",
    usage: "heartbeat",
    summary:
      "The client sends one heartbeat now (client.heartbeat()); the timeline shows whether it succeeded.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "heartbeat" }),
  },
  {
    name: "revoke",
    usage: "revoke [reason…]",
    summary: "An Admin revokes the license (POST /licenses/{id}/revoke).",
    remote: "ok",
    perMachine: false,
    parse: (args) => ({ kind: "revoke", reason: args.length ? args.join(" ") : null }),
  },
  {
    name: "suspend",
    usage: "suspend",
    summary: "An Admin suspends the license.",
    remote: "ok",
    perMachine: false,
    parse: noArgs({ kind: "suspend" }),
  },
  {
    name: "resume",
    usage: "resume",
    summary: "An Admin resumes a suspended license.",
    remote: "ok",
    perMachine: false,
    parse: noArgs({ kind: "resume" }),
  },
  {
    name: "rebind",
    usage: "rebind <machine|none> [none|fixed|firstActivation]",
    summary:
      "An Admin rebinds the license to a machine (its fingerprint now), or releases it with none, optionally forcing the mode. Every activation ends; the customer must download the license again.",
    remote: "ok",
    perMachine: false,
    parse(args) {
      if (args.length < 1 || args.length > 2) return "needs a machine (or none) and optionally a mode";
      const mode = args[1] ?? null;
      const binding = mode === null ? null : HwBinding.safeParse(mode);
      if (binding && !binding.success)
        return `the mode must be one of ${HwBinding.options.join(", ")}, got "${mode}"`;
      return {
        kind: "rebind",
        machine: args[0] === "none" ? null : args[0]!,
        binding: binding ? binding.data : null,
      };
    },
  },
  {
    name: "transfer",
    usage: "transfer",
    summary:
      "An Admin transfers the license to another company (a child company the simulator created): a new version, every activation ends.",
    remote: "ok",
    perMachine: false,
    parse: noArgs({ kind: "transfer" }),
  },
  {
    name: "download-license",
    usage: "download-license",
    summary:
      "The customer downloads the license file again (after a rebind or transfer); read at the next start.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "download-license" }),
  },
  {
    name: "delete-license",
    usage: "delete-license",
    summary: "Deletes the license file (rule 6); read at the next start.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "delete-license" }),
  },
  {
    name: "corrupt-license",
    usage: "corrupt-license",
    summary: "Damages the license token's signature in the file (rule 6); read at the next start.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "corrupt-license" }),
  },
  {
    name: "delete-marker",
    usage: "delete-marker",
    summary: "Deletes the cached marker (<license file>.hb); read at the next start.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "delete-marker" }),
  },
  {
    name: "corrupt-marker",
    usage: "corrupt-marker",
    summary: "Damages the cached marker's signature on disk; read at the next start.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "corrupt-marker" }),
  },
  {
    name: "sweep",
    usage: "sweep",
    summary:
      "Runs the server's background jobs now (license expiry and missed-heartbeat sweepers, idempotency purge, heartbeat partitions, usage rollup). `advance` runs them on the way (sweepers hourly, analytics daily, of virtual time) and all of them at its end.",
    remote: "refused",
    perMachine: false,
    parse: noArgs({ kind: "sweep" }),
  },
  {
    name: "change-component",
    usage: `change-component <${COMPONENT_KINDS.join("|")}> [<value>]`,
    summary:
      "A part of the machine is replaced (a new disk: disk-id; a new network card: mac-address; a renamed computer: host-name): the component gets a new value, or the one given. The SDK reads it at the next start.",
    remote: "ok",
    perMachine: true,
    parse: (args) => componentStep("change-component", args),
  },
  {
    name: "add-component",
    usage: `add-component <${COMPONENT_KINDS.join("|")}> [<value>]`,
    summary:
      "A part the SDK could not read becomes readable (removed earlier with remove-component). The SDK reads it at the next start.",
    remote: "ok",
    perMachine: true,
    parse: (args) => componentStep("add-component", args),
  },
  {
    name: "remove-component",
    usage: `remove-component <${COMPONENT_KINDS.join("|")}>`,
    summary:
      "A part is removed, or the SDK can no longer read it: the activation leaves that component out. The SDK reads it at the next start.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      if (args.length !== 1) return "needs one component";
      const component = componentArg(args[0]);
      return isComponentKind(component) ? { kind: "remove-component", component } : component;
    },
  },
  {
    name: "upgrade-os",
    usage: "upgrade-os [<major version>]",
    summary:
      "An OS major upgrade (debian 12 to 13 by default): the version changes, the family stays. Fingerprint version 1 includes the version, version 2 does not. The SDK reads it at the next start.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      if (args.length === 0) return { kind: "upgrade-os", major: null };
      const major = Number(args[0]);
      return args.length === 1 && Number.isInteger(major) && major >= 0
        ? { kind: "upgrade-os", major }
        : `takes an optional major version, got "${args.join(" ")}"`;
    },
  },
  {
    name: "reinstall",
    usage: "reinstall",
    summary:
      "The OS is installed again on the same hardware: a new machine-id, and the program's cache (marker and state) is gone; the license file is kept. The program must be stopped.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "reinstall" }),
  },
  {
    name: "deactivate-machine",
    usage: "deactivate-machine <machine>",
    summary:
      "The program frees another machine's seat, as an app offers after a seat-limit refusal: listMachines(), then deactivateMachine(id) of the one with that machine's host name; a program without an activation then activates at once.",
    remote: "ok",
    perMachine: true,
    parse: (args) =>
      args.length === 1 ? { kind: "deactivate-machine", machine: args[0]! } : "needs one machine name",
  },
  {
    name: "reset-activation",
    usage: "reset-activation [<machine>]",
    summary:
      "An Admin resets a machine's activation from the panel (POST /licenses/{id}/activations/{activationId}/reset; default this machine): its seat is freed, and its program learns of it at its next heartbeat.",
    remote: "ok",
    perMachine: false,
    parse: (args) =>
      args.length <= 1
        ? { kind: "reset-activation", machine: args[0] ?? null }
        : "takes at most one machine name",
  },
  {
    name: "reset-device-budget",
    usage: "reset-device-budget",
    summary:
      "An Admin resets the license's device budget from the panel: the new devices so far stop counting. The programs learn of it when they next ask (heartbeat, or their retry at retryAt).",
    remote: "ok",
    perMachine: false,
    parse: noArgs({ kind: "reset-device-budget" }),
  },
  {
    name: "offline-request",
    usage: "offline-request",
    summary:
      "Air-gapped activation, step 1: the program makes its LICENSE ACTIVATION REQUEST block (createOfflineActivationRequest), with no network; a person carries it to the panel. A new request replaces the pending one.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "offline-request" }),
  },
  {
    name: "offline-respond",
    usage: "offline-respond [<validDays>]",
    summary:
      "Air-gapped activation, step 2: an Admin pastes this machine's request in the panel (POST /licenses/{id}/offline-activations {request, validDays?}): the server activates the machine under the online rules and answers the LICENSE ACTIVATION block, valid validDays from now (default: until the license expires).",
    remote: "ok",
    perMachine: true,
    parse(args) {
      if (args.length === 0) return { kind: "offline-respond", validDays: null };
      const days = /^(\d+)d?$/.exec(args[0] ?? "")?.[1];
      const validDays = OfflineActivationBody.shape.validDays.safeParse(Number(days));
      return args.length === 1 && days !== undefined && validDays.success
        ? { kind: "offline-respond", validDays: Number(days) }
        : `takes an optional number of days from 1 to 36500, e.g. offline-respond 30, got "${args.join(" ")}"`;
    },
  },
  {
    name: "offline-apply",
    usage: "offline-apply [from <machine>]",
    summary:
      "Air-gapped activation, step 3: the program applies the panel's response (applyOfflineActivation): this machine's, or the one made for another machine's request. A refusal is the step's result, not an error: expect offline.refused <reason> (other-machine, other-request, signature-invalid, …); null once one applied.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      const from = fromArg(args);
      return typeof from === "object" && from !== null ? from.problem : { kind: "offline-apply", from };
    },
  },
  {
    name: "offline-deactivate",
    usage: "offline-deactivate",
    summary:
      "The program deletes its offline activation (deactivateOffline) and shows the LICENSE DEACTIVATION receipt; the seat stays taken on the server until the receipt is handed in.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "offline-deactivate" }),
  },
  {
    name: "offline-hand-in-receipt",
    usage: "offline-hand-in-receipt [from <machine>]",
    summary:
      "An Admin pastes this machine's receipt (or another's) in the panel (POST /offline-deactivations {receipt}): the seat is freed. The same receipt again answers the same.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      const from = fromArg(args);
      return typeof from === "object" && from !== null
        ? from.problem
        : { kind: "offline-hand-in-receipt", from };
    },
  },
  {
    name: "forge-revocation",
    usage: `forge-revocation [${FORGERIES.join("|")}]`,
    summary:
      "A network attacker answers every request with 403 license.revoked: with a revocation signed by a key the program does not trust (other-key, the default; it names the root's key id), or without one (unsigned). A program must change nothing for it. `online` ends it.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      if (args.length === 0) return { kind: "forge-revocation", forgery: "other-key" };
      const forgery = FORGERIES.find((f) => f === args[0]);
      return forgery && args.length === 1
        ? { kind: "forge-revocation", forgery }
        : `takes one of ${FORGERIES.join(", ")}, got "${args.join(" ")}"`;
    },
  },
  {
    name: "apply-revocation-list",
    usage: "apply-revocation-list [forged]",
    summary:
      "The vendor downloads the template's revocation list (GET /client/revocations, every page since the license was issued) and a person carries it to the program, which applies it (applyRevocationList) without the network: a license with immediate revocation that the list names becomes Revoked. `forged`: a list naming this license, signed by a key the program does not trust.",
    remote: "ok",
    perMachine: true,
    parse: (args) =>
      args.length === 0
        ? { kind: "apply-revocation-list", forged: false }
        : args.length === 1 && args[0] === "forged"
          ? { kind: "apply-revocation-list", forged: true }
          : `takes nothing or forged, got "${args.join(" ")}"`,
  },
  {
    name: "rotate-key",
    usage: "rotate-key",
    summary:
      "An operator rotates the template's signing key (POST /templates/{id}/signing-keys/rotate): a new Active key, certified by the root; the keys are numbered as made, 1 the root. Programs are built with the root key and must keep verifying.",
    remote: "refused",
    perMachine: false,
    parse: noArgs({ kind: "rotate-key" }),
  },
  {
    name: "retire-key",
    usage: "retire-key [root|<n>]",
    summary:
      "An operator retires an Inactive key (POST /templates/{id}/signing-keys/{keyId}/retire): by default the one the latest rotation replaced. It signs nothing more; the markers of its licenses come from the Active key, and what it signed before stays valid until its own expiry.",
    remote: "refused",
    perMachine: false,
    parse(args) {
      if (args.length === 0) return { kind: "retire-key", key: null };
      if (args.length !== 1) return `takes nothing, root or a key's number, got "${args.join(" ")}"`;
      const key = keyNumber(args[0]);
      return typeof key === "number" ? { kind: "retire-key", key } : key;
    },
  },
  {
    name: "crash",
    usage: "crash",
    summary:
      "The application dies (killed, power cut): its client stops without dispose(), so it neither deactivates nor releases its lease; its timers stop. The seat of a floating license stays held until the lease expires (leaseSeconds after its last renewal). `start` runs the program again on the same files.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "crash" }),
  },
  {
    name: "sleep",
    usage: "sleep",
    summary:
      "The computer sleeps (a laptop's lid closed): its program's timers stop while the shared clock moves on, and it makes no request. Its wall clock keeps running, as a real computer's does; its timers measure running time, as the system's monotonic clock does, so when it wakes each timer is late by the time it slept unless the SDK notices the jump in wall time.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "sleep" }),
  },
  {
    name: "wake",
    usage: "wake",
    summary:
      "The computer wakes: its program's timers run again, each due as late as the computer slept (the SDK should notice the jump in wall time and renew or heartbeat at once).",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "wake" }),
  },
  {
    name: "force-release",
    usage: "force-release [<machine>]",
    summary:
      "An Admin force-releases a machine's lease of a floating license from the panel (GET /licenses/{id}/leases, then DELETE /leases/{leaseId} of the one that machine holds; default this machine): the seat frees at once, and the holder's next renew answers 410 lease.released.",
    remote: "ok",
    perMachine: false,
    parse: (args) =>
      args.length <= 1
        ? { kind: "force-release", machine: args[0] ?? null }
        : "takes at most one machine name",
  },
  {
    name: "borrow",
    usage: "borrow <duration>",
    summary:
      "The program borrows its floating seat for offline work (client.borrow(until), until = this machine's clock + duration, at most the license's maxBorrowDays): the lease holds the seat until then without renewals, and the program stays usable offline.",
    remote: "ok",
    perMachine: true,
    parse(args) {
      const by = durationArg(args.join("") || undefined, "how long, e.g. borrow 7d");
      if (typeof by === "string") return by;
      return by > 0 ? { kind: "borrow", for: by } : "the borrow must end in the future";
    },
  },
  {
    name: "return-borrowed",
    usage: "return-borrowed",
    summary:
      "The program returns its borrowed seat early (client.returnBorrowed()): the seat frees at once on the server, and another machine can take it.",
    remote: "ok",
    perMachine: true,
    parse: noArgs({ kind: "return-borrowed" }),
  },
  {
    name: "on",
    usage: "on <machine> <step>",
    summary:
      "Runs a step of one machine on another computer: a second client. The computer is made on first use with the machine's own hardware, a program folder holding the license file as the panel gives it then, its own network and clock. `on` the machine the main program runs on is that program. `on <machine> advance to <anchor>` moves the shared clock to a point of that machine's program (on workstation-4 advance to retry-at +5s).",
    remote: "ok",
    perMachine: false,
    parse: parseOn,
  },
  {
    name: "client",
    usage: "client <machine> <step>",
    summary:
      "The same as `on <machine> <step>`, spelt as a second client: `client B start`, `client B expect details.reason no-seat`.",
    remote: "ok",
    perMachine: false,
    parse: parseOn,
  },
  {
    name: "expect",
    usage:
      "expect status <Status> | usable <bool> | initialized <bool> | feature <name> | no-feature <name> | config <path> <value> | details.<path> <value> | license.<path> <value> | activation.<path> <value> | server.<path> <value> | offline.<path> <value> | seats <n> | activations <n> | heals <n> | leases <n> | holders <n> | requests <n> | signer <license|marker> <root|n>",
    summary:
      "Checks the client now (status, statusDetails, hasFeature, getConfig, license), the last answer the server gave its activation (activation.healed, activation.code, activation.retryAt), or the license on the server (server.<path>: GET /licenses/{id}; seats: its live activations, activations: all it had, heals: their heals, leases: the live leases of a floating license, GET /licenses/{id}/leases), the machines holding the seats when this program found none (holders: the count of statusDetails.holders, 0 when it has a seat), this machine's air-gapped exchange (offline.refused: why applying a response was refused, null once one applied; offline.activationId; offline.requestLength), the requests its program made since the previous `expect requests` of this machine (or the scenario's start), answered or failed by the network alike, or which key signed the license file's token or the cached marker on disk (signer marker 3: the second rotation's key). A failed check fails the scenario. Values are JSON (3, true, null, \"text\"), fingerprint(<machine>) for that machine's fingerprint, or bare words.",
    remote: "ok",
    perMachine: true,
    parse: parseExpect,
  },
];

const BY_NAME = new Map(STEP_SPECS.map((spec) => [spec.name, spec]));

/** `on <machine> <step>` (and its spelling `client <machine> <step>`). */
function parseOn(args: string[]): Step | string {
  const [machine, ...rest] = args;
  if (!machine || rest.length === 0) return "needs a machine and a step, e.g. on home-laptop start";
  const step = parseStep(rest.join(" "));
  if (typeof step === "string") return step;
  // `advance to <anchor>` aims at a point of that machine's program (its retry-at, …).
  if (!stepSpec(step.kind).perMachine && step.kind !== "advance-to")
    return `${stepSpec(step.kind).name} is not a step of one machine's program`;
  return { kind: "on", machine, step };
}

export function stepSpec(kind: StepKind): StepSpec {
  const name = kind === "advance-to" ? "advance" : kind;
  return BY_NAME.get(name)!;
}

/** A step from its text (`advance 3d`), or the reason it is not one. */
export function parseStep(text: string): Step | string {
  const [name, ...args] = text.trim().split(/\s+/);
  const spec = BY_NAME.get(name ?? "");
  if (!spec) return `unknown step "${name ?? ""}" (licensing-sim --help lists the steps)`;
  const step = spec.parse(args);
  return typeof step === "string" ? `${spec.name}: ${step}` : step;
}
