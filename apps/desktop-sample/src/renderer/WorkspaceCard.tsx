import { Alert, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import type { LicenseView } from "../shared/bridge.ts";
import { bridge } from "./bridge.ts";
import { DeactivateOffline } from "./DeactivateOffline.tsx";
import { ErrorAlert } from "./ErrorAlert.tsx";
import { useAction } from "./use-action.ts";

/** The product itself, gated by the license: export needs the `export` feature, projects follow `limits.maxProjects`. */
export function WorkspaceCard({
  view,
  onActivateOffline,
}: {
  view: LicenseView;
  /** Opens "Activate without internet". */
  onActivateOffline: () => void;
}) {
  const { busy, error, run, clearError } = useAction();
  const { gating } = view;
  const hasExportFeature = view.license?.features.includes("export") ?? false;
  const exportLockReason = !view.usable
    ? `Locked: the license is ${view.status === "GracePeriod" ? "in its grace period" : view.status}.`
    : !hasExportFeature
      ? "Locked: your license does not include export."
      : null;
  return (
    <Card withBorder padding="lg" aria-labelledby="workspace-title">
      <Stack gap="sm">
        <Title order={3} id="workspace-title">
          Workspace
        </Title>
        {!view.usable && (
          <Alert color="red" title="Editing is disabled" data-testid="locked-banner">
            The license is not usable ({view.status}). Connect to the licensing server, activate without
            internet, or install a new license file.
          </Alert>
        )}
        <Text data-testid="project-limit">
          Projects:{" "}
          {gating.maxProjects === null
            ? view.usable
              ? "no limit set"
              : "unavailable"
            : `up to ${gating.maxProjects}`}
        </Text>
        <Group>
          <Button disabled={!gating.exportUnlocked} data-testid="export-button">
            Export project
          </Button>
          {exportLockReason && (
            <Text size="sm" c="dimmed" data-testid="export-lock">
              {exportLockReason}
            </Text>
          )}
        </Group>
        <Group mt="sm">
          {/* Activated without internet: the app never contacts the server, so only the offline way out. */}
          {view.offline.certificateExpiresAt === null ? (
            <>
              <Button
                variant="light"
                loading={busy === "heartbeat"}
                onClick={() => void run("heartbeat", () => bridge().heartbeat())}
              >
                {view.connection.activated ? "Check in now" : "Activate this machine"}
              </Button>
              <Button
                variant="outline"
                color="red"
                disabled={!view.connection.activated}
                loading={busy === "deactivate"}
                onClick={() => void run("deactivate", () => bridge().deactivate())}
              >
                Deactivate this machine
              </Button>
            </>
          ) : (
            <DeactivateOffline
              loading={busy === "offline-deactivate"}
              onConfirm={() => void run("offline-deactivate", () => bridge().offline.deactivate())}
            />
          )}
          {!view.usable && (
            <Button variant="default" onClick={onActivateOffline}>
              Activate without internet…
            </Button>
          )}
        </Group>
        <ErrorAlert error={error} onClose={clearError} />
      </Stack>
    </Card>
  );
}
