import { RevocationMode } from "@licensing/contracts";

/**
 * What each `revocation` mode does to the machines of a revoked license, in words (decision 0049). Keyed by
 * the contract's enumeration: a new mode fails the typecheck until it is described here.
 */
export const REVOCATION_MODES = {
  graceful: {
    name: "Graceful",
    means:
      "the specification's rule 5: a revoked license keeps working on a machine until its offline marker runs out",
  },
  immediate: {
    name: "Immediate",
    means:
      "programs that are online turn Revoked at their next call, with a signed revocation; the revocation list reaches machines that never go online",
  },
} satisfies Record<RevocationMode, { name: string; means: string }>;

export const revocationOptions = RevocationMode.options.map((value) => ({
  value,
  label: REVOCATION_MODES[value].name,
}));

export const REVOCATION_DESCRIPTION =
  "What revoking a license does on the machines it is installed on. Licenses keep the mode they were issued with";

/** The explanation under a chosen mode: "Graceful: …". */
export const revocationMeaning = (mode: RevocationMode) =>
  `${REVOCATION_MODES[mode].name}: ${REVOCATION_MODES[mode].means}.`;
