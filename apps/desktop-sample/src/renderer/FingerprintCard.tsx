import { Card, Code, Stack, Table, Text, Title } from "@mantine/core";
import type { LicenseView } from "../shared/bridge.ts";

/** The fingerprint this machine activates with, and the sources it was derived from. */
export function FingerprintCard({ view }: { view: LicenseView }) {
  const { fingerprint } = view;
  if (!fingerprint) return null;
  return (
    <Card withBorder padding="lg" aria-labelledby="fingerprint-title">
      <Stack gap="sm">
        <Title order={3} id="fingerprint-title">
          This machine
        </Title>
        <Code block data-testid="fingerprint">
          {fingerprint.value}
        </Code>
        {fingerprint.derivedFrom === "configured" ? (
          <Text size="sm" c="dimmed">
            Set by the product, not derived from this machine.
          </Text>
        ) : (
          <Table data-testid="fingerprint-sources" variant="vertical" layout="fixed">
            <Table.Tbody>
              {fingerprint.sources.map((source) => (
                <Table.Tr key={source.name}>
                  <Table.Th w={200}>{source.name}</Table.Th>
                  <Table.Td>{source.value ?? <Text c="dimmed">not available</Text>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
