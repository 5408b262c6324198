import type {
  ActivationResponse,
  CompanyResponse,
  LicenseStatus,
  SigningKeyStatus,
  TemplateStatus,
  UserResponse,
  WebhookDeliveryStatus,
} from "@licensing/contracts";
import { Badge, type BadgeProps, type MantineColor } from "@mantine/core";

type Colors<S extends string> = Record<S, MantineColor>;

/**
 * The colour of every status the app shows, by what it is the status of: live or done (teal), waiting or
 * held (yellow), refused or failed (red), ended (gray). Shades that pass AA contrast with the badge's
 * text (yellow gets dark text from autoContrast). Each list is the contract's whole enumeration, so a new
 * status fails the typecheck until it has a colour.
 */
export const STATUS_COLORS = {
  license: {
    Active: "teal.9",
    Suspended: "yellow",
    Revoked: "red.9",
    Expired: "gray",
  } satisfies Colors<LicenseStatus>,
  company: { Active: "teal.9", Archived: "gray" } satisfies Colors<CompanyResponse["status"]>,
  template: { Active: "teal.9", Archived: "gray" } satisfies Colors<TemplateStatus>,
  signingKey: { Active: "teal.9", Inactive: "yellow", Retired: "gray" } satisfies Colors<SigningKeyStatus>,
  user: { active: "teal.9", pending: "yellow", revoked: "gray" } satisfies Colors<UserResponse["status"]>,
  activation: { active: "teal.9", deactivated: "gray" } satisfies Colors<ActivationResponse["status"]>,
  token: { revoked: "gray" },
  webhook: { active: "teal.9", inactive: "gray.7" },
  delivery: {
    Pending: "yellow",
    Succeeded: "teal.9",
    Failed: "red.9",
  } satisfies Colors<WebhookDeliveryStatus>,
  /** A bulk-issue row: checked before sending, then its outcome. */
  bulkRow: { ready: "teal.9", issued: "teal.9", failed: "red.9", skipped: "yellow", "not sent": "gray.8" },
} as const;

type Kind = keyof typeof STATUS_COLORS;

/** A status as a badge in its colour: `<StatusBadge of="license" status={l.status} />`. */
export function StatusBadge<K extends Kind>({
  of,
  status,
  ...props
}: { of: K; status: keyof (typeof STATUS_COLORS)[K] & string } & Omit<BadgeProps, "color" | "children">) {
  const colors: Record<string, MantineColor> = STATUS_COLORS[of];
  return (
    <Badge color={colors[status]} {...props}>
      {status}
    </Badge>
  );
}
