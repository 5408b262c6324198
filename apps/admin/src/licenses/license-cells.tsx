import type { LicenseStatus } from "@licensing/contracts";
import { Badge, Code } from "@mantine/core";
import type { Column } from "../lib/data-table.tsx";
import { AnchorLink } from "../lib/links.tsx";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";

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

type Row = {
  id: string;
  licenseKey: string;
  status: LicenseStatus;
  isTrial: boolean;
  expiresAt: string | null;
};

/** The columns every list of licenses has. */
export const licenseColumns = {
  key: { header: "License key", cell: (l) => <LicenseKeyLink id={l.id} licenseKey={l.licenseKey} /> },
  status: { header: "Status", cell: (l) => <LicenseStatusBadges status={l.status} isTrial={l.isTrial} /> },
  expires: { header: "Expires", cell: (l) => formatDate(l.expiresAt) },
} satisfies Record<string, Column<Row>>;
