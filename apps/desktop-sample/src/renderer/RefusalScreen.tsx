import { Button, Group, Table, Text } from "@mantine/core";
import type { LicenseView, StatusReason } from "../shared/bridge.ts";
import { bridge } from "./bridge.ts";
import { ErrorAlert } from "./ErrorAlert.tsx";
import { formatCountdown, formatDate } from "./format.ts";
import { RefusalCard } from "./RefusalCard.tsx";
import { SeatLimitScreen } from "./SeatLimitScreen.tsx";
import { useAction } from "./use-action.ts";

const REFUSALS = ["seat-limit", "device-budget", "license-not-active", "device-changed", "no-seat"] as const;
type Refusal = (typeof REFUSALS)[number];

/** The server refused this machine and no marker lets it work meanwhile: the reason has a screen of its own. */
export const isRefusal = (reason: StatusReason): reason is Refusal =>
  (REFUSALS as readonly StatusReason[]).includes(reason);

/** What the user can do after a refusal (the SDK README's "When the server says no"). */
export function RefusalScreen({ view, now }: { view: LicenseView & { reason: Refusal }; now: number }) {
  switch (view.reason) {
    case "seat-limit":
      return <SeatLimitScreen view={view} now={now} />;
    case "device-budget":
      return <DeviceBudgetScreen view={view} now={now} />;
    case "no-seat":
      return <NoSeatScreen view={view} now={now} />;
    case "license-not-active":
      return (
        <RefusalCard view={view} title="License not active">
          <Text>
            Your license was revoked, suspended or has expired, so Acme Editor cannot be used on this
            computer. Contact your vendor, or whoever gave you the license.
          </Text>
          <Actions install="Install another license file…" />
        </RefusalCard>
      );
    case "device-changed":
      return (
        <RefusalCard view={view} title="License bound to another computer">
          <Text>
            This license is tied to another computer. Ask your vendor to move it to this one, then install the
            license file they send you.
          </Text>
          <Actions install="Install the new license file…" />
        </RefusalCard>
      );
  }
}

function DeviceBudgetScreen({ view, now }: { view: LicenseView; now: number }) {
  const { retryAt } = view;
  return (
    <RefusalCard view={view} title="Too many new computers">
      <Text>
        This license has been activated on as many new computers as it allows for now.{" "}
        {retryAt === null
          ? "Acme Editor tries again later on its own."
          : retryAt > now
            ? "Acme Editor activates on its own when it may; leave it open, or start it again then."
            : "It may activate now: Acme Editor is trying again."}{" "}
        Your vendor can lift the limit sooner.
      </Text>
      {retryAt !== null && retryAt > now && (
        <Text fw={600} data-testid="retry-at">
          Activates on {formatDate(retryAt)}, in {formatCountdown(retryAt - now)}
        </Text>
      )}
      <Actions />
    </RefusalCard>
  );
}

/**
 * A floating license with every seat leased (decision 0052): who holds them, since and until when, and
 * when the app asks again. The main process pushes a new view when a seat frees and this app takes it.
 */
function NoSeatScreen({ view, now }: { view: LicenseView; now: number }) {
  const { retryAt, holders } = view;
  return (
    <RefusalCard view={view} title="No free seat">
      <Text>
        Every shared seat of this license is in use on other computers. Acme Editor takes the first seat that
        frees on its own: leave it open.
      </Text>
      {holders && holders.length > 0 && (
        <Table data-testid="seat-holders" aria-label="Computers using the seats">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Computer</Table.Th>
              <Table.Th>Since</Table.Th>
              <Table.Th>Until</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {holders.map((holder, index) => (
              <Table.Tr key={index}>
                <Table.Td>{holder.name ?? "Unnamed computer"}</Table.Td>
                <Table.Td>{formatDate(holder.since)}</Table.Td>
                <Table.Td>{formatDate(holder.until)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {retryAt !== null && (
        <Text fw={600} data-testid="retry-at">
          {retryAt > now
            ? `Trying again at ${formatDate(retryAt)}, in ${formatCountdown(retryAt - now)}`
            : "Trying again now"}
        </Text>
      )}
    </RefusalCard>
  );
}

/** "Check again" (a heartbeat, which activates), and installing a license file when one is offered. */
function Actions({ install }: { install?: string }) {
  const { busy, error, run, clearError } = useAction();
  return (
    <>
      <Group>
        <Button
          variant="light"
          disabled={busy !== null}
          loading={busy === "heartbeat"}
          onClick={() => void run("heartbeat", () => bridge().heartbeat())}
        >
          Check again
        </Button>
        {install && (
          <Button
            variant="default"
            disabled={busy !== null}
            loading={busy === "choose"}
            onClick={() => void run("choose", () => bridge().chooseLicenseFile())}
          >
            {install}
          </Button>
        )}
      </Group>
      <ErrorAlert error={error} onClose={clearError} />
    </>
  );
}
