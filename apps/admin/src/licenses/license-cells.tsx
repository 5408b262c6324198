import type { LicenseStatus } from "@licensing/contracts";
import { Badge, Code } from "@mantine/core";
import { AnchorLink } from "../lib/links.tsx";
import { StatusBadge } from "../lib/status.tsx";

/** A license's key, linking to its page. */
export function LicenseKeyLink({ id, licenseKey }: { id: string; licenseKey: string }) {
  return (
    <AnchorLink to="/licenses/$licenseId" params={{ licenseId: id }}>
      <Code>{licenseKey}</Code>
    </AnchorLink>
  );
}

/** Its status, and "trial" beside it when it is one. */
export function LicenseStatusBadges({ status, isTrial }: { status: LicenseStatus; isTrial: boolean }) {
  return (
    <>
      <StatusBadge of="license" status={status} />
      {isTrial && (
        <Badge ml={4} variant="outline">
          trial
        </Badge>
      )}
    </>
  );
}
