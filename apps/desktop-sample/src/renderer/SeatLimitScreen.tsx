import { Button, Group, Modal, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
import type { LicenseView, MachineView } from "../shared/bridge.ts";
import { bridge } from "./bridge.ts";
import { ErrorAlert } from "./ErrorAlert.tsx";
import { formatAgo, formatDate } from "./format.ts";
import { RefusalCard } from "./RefusalCard.tsx";
import { useAction } from "./use-action.ts";

const nameOf = (machine: MachineView) => machine.name ?? "Unnamed machine";
const lastSeenAt = (machine: MachineView) => machine.lastHeartbeatAt ?? machine.activatedAt;

/** What holds the seats, leading to what to do: "… in use by other machines. Free one of them to use". */
function seatsInUse(maxSeats: unknown): string {
  if (maxSeats === 1) return "The only seat of this license is in use by another machine. Free it to use";
  const seats =
    maxSeats === 2 ? "Both seats" : typeof maxSeats === "number" ? `All ${maxSeats} seats` : "Every seat";
  return `${seats} of this license ${seats === "Every seat" ? "is" : "are"} in use by other machines. Free one of them to use`;
}

/**
 * Every seat is held by another machine: lists them (least recently seen first) and frees the one the user
 * confirms; the main process then activates this machine, and the next view it pushes is Active.
 */
export function SeatLimitScreen({ view, now }: { view: LicenseView; now: number }) {
  const { busy, error, run, clearError } = useAction();
  const [chosen, setChosen] = useState<MachineView | null>(null);
  const [confirming, setConfirming] = useState(false);
  const machines = [...(view.machines ?? [])].sort((a, b) => lastSeenAt(a) - lastSeenAt(b));
  const ask = (machine: MachineView) => {
    setChosen(machine);
    setConfirming(true);
  };
  const free = () => {
    setConfirming(false);
    if (chosen) void run(`free:${chosen.seatId}`, () => bridge().freeSeat(chosen.seatId));
  };
  return (
    <RefusalCard view={view} title="Seat limit reached">
      <Text>
        {seatsInUse(view.license?.limits.maxSeats)} Acme Editor on this computer: that machine loses its seat,
        and this one takes it at once.
      </Text>
      <Table data-testid="seat-machines" verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Machine</Table.Th>
            <Table.Th>Activated</Table.Th>
            <Table.Th>Last seen</Table.Th>
            <Table.Th>
              <VisuallyHidden>Action</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {machines.map((machine) => (
            <Table.Tr key={machine.seatId} data-testid="seat-machine">
              <Table.Td>
                <Text fw={600} fs={machine.name ? undefined : "italic"}>
                  {nameOf(machine)}
                </Text>
              </Table.Td>
              <Table.Td>{formatDate(machine.activatedAt)}</Table.Td>
              <Table.Td>
                <Text size="sm">{formatDate(lastSeenAt(machine))}</Text>
                <Text size="xs" c="dimmed">
                  {machine.lastHeartbeatAt === null
                    ? "not since it activated"
                    : formatAgo(now - machine.lastHeartbeatAt)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Button
                  variant="light"
                  color="red"
                  size="xs"
                  aria-label={`Free this seat: ${nameOf(machine)}`}
                  disabled={busy !== null}
                  loading={busy === `free:${machine.seatId}`}
                  onClick={() => ask(machine)}
                >
                  Free this seat
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group>
        <Button
          variant="default"
          disabled={busy !== null}
          loading={busy === "heartbeat"}
          onClick={() => void run("heartbeat", () => bridge().heartbeat())}
        >
          Check again
        </Button>
        <Text size="sm" c="dimmed">
          Acme Editor also asks again on its own now and then, so a seat freed elsewhere is taken by itself.
        </Text>
      </Group>
      <ErrorAlert error={error} onClose={clearError} />
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Free the seat of ${chosen ? nameOf(chosen) : ""}?`}
        centered
        closeButtonProps={{ "aria-label": "Close" }}
      >
        <Stack>
          <Text size="sm">
            {chosen && nameOf(chosen)} loses its seat: it finds out the next time it checks in with the
            licensing server, and stops working once its offline allowance runs out, unless a seat is free
            again by then. Nothing on it is deleted.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button color="red" onClick={free}>
              Free the seat
            </Button>
          </Group>
        </Stack>
      </Modal>
    </RefusalCard>
  );
}
