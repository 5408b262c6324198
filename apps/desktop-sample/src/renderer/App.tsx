import { Center, Container, Group, Loader, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { FingerprintCard } from "./FingerprintCard.tsx";
import { FirstRun } from "./FirstRun.tsx";
import { LicenseDetails } from "./LicenseDetails.tsx";
import { QaPanel } from "./QaPanel.tsx";
import { isRefusal, RefusalScreen } from "./RefusalScreen.tsx";
import { StatusCard } from "./StatusCard.tsx";
import { useClientNow, useLicenseView } from "./use-license-view.ts";
import { WorkspaceCard } from "./WorkspaceCard.tsx";

export function App() {
  const { view, receivedAt } = useLicenseView();
  const now = useClientNow(view, receivedAt);
  if (!view) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading the license" />
      </Center>
    );
  }
  return (
    <Container size="lg" py="lg">
      <Stack>
        <Group justify="space-between">
          <Title order={1} size="h2">
            Acme Editor
          </Title>
          <Text size="sm" c="dimmed">
            Sample product for @licensing/client
          </Text>
        </Group>
        {view.phase === "first-run" ? (
          <FirstRun view={view} />
        ) : isRefusal(view.reason) ? (
          <RefusalScreen view={{ ...view, reason: view.reason }} now={now} />
        ) : (
          <>
            <StatusCard view={view} now={now} />
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Stack>
                <WorkspaceCard view={view} />
                <FingerprintCard view={view} />
              </Stack>
              <LicenseDetails view={view} />
            </SimpleGrid>
          </>
        )}
        {view.qa.enabled && <QaPanel view={view} />}
      </Stack>
    </Container>
  );
}
