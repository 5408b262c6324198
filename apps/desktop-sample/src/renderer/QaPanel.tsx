import {
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from "@mantine/core";
import { useState } from "react";
import type { LicenseView, NetworkMode, ScenarioRun } from "../shared/bridge.ts";
import { bridge } from "./bridge.ts";
import { ErrorAlert } from "./ErrorAlert.tsx";
import { formatDate, formatElapsed, formatOffset } from "./format.ts";
import { STATUS_COLORS } from "./StatusCard.tsx";
import { useAction } from "./use-action.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STEPS = [
  { label: "+1 hour", ms: HOUR },
  { label: "+6 hours", ms: 6 * HOUR },
  { label: "+1 day", ms: DAY },
  { label: "+7 days", ms: 7 * DAY },
];

/** QA levers (`--qa`): the network, the client's clock, a restart, and simulator scenarios with their timeline. */
export function QaPanel({ view }: { view: LicenseView }) {
  const { busy, error, run, clearError } = useAction();
  const [amount, setAmount] = useState<number | string>(2);
  const [unit, setUnit] = useState<string | null>("days");
  const [scenario, setScenario] = useState<ScenarioRun | null>(null);
  const qa = bridge().qa;
  const custom = typeof amount === "number" && amount > 0 ? amount * (unit === "hours" ? HOUR : DAY) : null;
  const runScenario = async () => {
    const result = await qa.runScenario();
    if (result) setScenario(result);
    return { ok: true } as const;
  };
  return (
    <Card withBorder padding="lg" aria-labelledby="qa-title" bg="gray.0" data-testid="qa-panel">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={3} id="qa-title">
            QA panel
          </Title>
          <Text size="sm" c="dimmed">
            Clock offset: <b data-testid="clock-offset">{formatOffset(view.qa.clockOffsetMs)}</b> · client
            time {formatDate(view.at)}
          </Text>
        </Group>
        <Stack gap={4}>
          <Text fw={600} id="network-label">
            Network
          </Text>
          <SegmentedControl
            aria-labelledby="network-label"
            value={view.qa.network}
            onChange={(mode) => void run("network", () => qa.setNetwork(mode as NetworkMode))}
            data={[
              { value: "online", label: "Online" },
              { value: "offline", label: "Offline" },
              { value: "server-error", label: "Server fails (503)" },
            ]}
          />
        </Stack>
        <Stack gap={4}>
          <Text fw={600}>Advance the clock</Text>
          <Group gap="xs">
            {STEPS.map((step) => (
              <Button
                key={step.label}
                variant="default"
                onClick={() => void run("clock", () => qa.advanceClock(step.ms))}
              >
                {step.label}
              </Button>
            ))}
          </Group>
          <Group gap="xs" align="end">
            <NumberInput
              label="Amount"
              min={1}
              max={400}
              w={110}
              value={amount}
              onChange={setAmount}
              hideControls
            />
            <Select
              label="Unit"
              w={120}
              data={["hours", "days"]}
              value={unit}
              onChange={setUnit}
              allowDeselect={false}
            />
            <Button
              variant="default"
              disabled={custom === null}
              onClick={() => custom && void run("clock", () => qa.advanceClock(custom))}
            >
              Advance
            </Button>
            <Button variant="subtle" onClick={() => void run("clock", () => qa.resetClock())}>
              Reset clock
            </Button>
          </Group>
        </Stack>
        <Group>
          <Button
            variant="default"
            loading={busy === "restart"}
            onClick={() => void run("restart", () => qa.restart())}
          >
            Restart client
          </Button>
          <Button
            variant="default"
            loading={busy === "scenario"}
            onClick={() => void run("scenario", runScenario)}
          >
            Run scenario file…
          </Button>
        </Group>
        <ErrorAlert error={error} onClose={clearError} />
        {scenario && <ScenarioTimeline run={scenario} />}
      </Stack>
    </Card>
  );
}

function ScenarioTimeline({ run }: { run: ScenarioRun }) {
  return (
    <Stack gap="xs" data-testid="scenario-timeline">
      <Group>
        <Text fw={600}>Scenario {run.name}</Text>
        <Badge color={run.passed ? "teal" : "red"}>{run.passed ? "passed" : "failed"}</Badge>
      </Group>
      {run.error && (
        <Text c="red" size="sm">
          {run.error.message} ({run.error.code})
        </Text>
      )}
      {run.entries.length > 0 && (
        <Table striped withTableBorder aria-label="Scenario timeline">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Line</Table.Th>
              <Table.Th>Scenario time</Table.Th>
              <Table.Th>Step</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Result</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {run.entries.map((entry, index) => (
              <Table.Tr key={index} fs={entry.kind === "transition" ? "italic" : undefined}>
                <Table.Td>{entry.line ?? ""}</Table.Td>
                <Table.Td title={formatDate(entry.at)}>{formatElapsed(entry.elapsedMs)}</Table.Td>
                <Table.Td>
                  <code>{entry.step}</code>
                </Table.Td>
                <Table.Td>
                  {entry.status && <Badge color={STATUS_COLORS[entry.status]}>{entry.status}</Badge>}
                </Table.Td>
                <Table.Td c={entry.ok ? undefined : "red"}>
                  {entry.ok ? (entry.detail ?? "ok") : (entry.detail ?? "failed")}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
