import type { ReactNode } from "react";
import { Badge, Card, Group, Stack, Table, Text, Title } from "@mantine/core";
import type { LicenseView } from "../shared/bridge.ts";
import { formatDate } from "./format.ts";

const row = (label: string, value: ReactNode) => (
  <Table.Tr key={label}>
    <Table.Th w={200}>{label}</Table.Th>
    <Table.Td>{value}</Table.Td>
  </Table.Tr>
);

/** What the license says (features, limits, expiry), the last marker, and the connection. */
export function LicenseDetails({ view }: { view: LicenseView }) {
  const { license, marker, connection } = view;
  if (!license) return null;
  return (
    <Card withBorder padding="lg" aria-labelledby="license-title">
      <Stack gap="sm">
        <Title order={3} id="license-title">
          License
        </Title>
        <Table data-testid="license-table" variant="vertical" layout="fixed">
          <Table.Tbody>
            {row("Product", `${license.productCode}${license.trial ? " (trial)" : ""}`)}
            {row("License", <code>{license.licenseId}</code>)}
            {row("Version", license.version)}
            {row("Expires", formatDate(license.expiresAt))}
            {row("Machine binding", license.hwBinding)}
            {row(
              "Features",
              license.features.length ? (
                <Group gap={4}>
                  {license.features.map((feature) => (
                    <Badge key={feature} variant="light">
                      {feature}
                    </Badge>
                  ))}
                </Group>
              ) : (
                "none"
              ),
            )}
            {row(
              "Limits",
              Object.keys(license.limits).length
                ? Object.entries(license.limits)
                    .map(([name, value]) => `${name}: ${JSON.stringify(value)}`)
                    .join(", ")
                : "none",
            )}
            {view.offline.certificateExpiresAt !== null &&
              row("Activated without internet until", formatDate(view.offline.certificateExpiresAt))}
            {row("Last marker issued", formatDate(marker?.issuedAt))}
            {row("Marker expires", formatDate(marker?.expiresAt))}
            {row("Last contact", formatDate(connection.lastContactAt))}
            {row(
              "Next check-in",
              connection.heartbeating ? formatDate(connection.nextHeartbeatAt) : "stopped",
            )}
            {row(
              "Last error",
              connection.lastError ? (
                <Text c="red" size="sm">
                  {connection.lastError.code}: {connection.lastError.message}
                </Text>
              ) : (
                "none"
              ),
            )}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
