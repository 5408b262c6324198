import type { LicenseResponse } from "@licensing/contracts";
import { Group, Paper, Progress, SimpleGrid, Text, Title } from "@mantine/core";
import { useAction } from "../lib/action.tsx";
import { ConfirmButton } from "../lib/confirm-button.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { Field, formatDate } from "../lib/ui.tsx";
import { budgetResetConsequences, describeLimit } from "./device-terms.ts";

/**
 * How many machines new to the license activated in its window, against its limit (decision 0047), and for
 * an Admin the reset, which asks first.
 */
export function DeviceBudgetPanel({ license, canReset }: { license: LicenseResponse; canReset: boolean }) {
  const trpc = useTRPC();
  const budget = license.deviceBudget;
  const { used, max, windowDays, resetsAt } = budget;
  const reset = useAction(trpc.activations.resetDeviceBudget.mutationOptions(), {
    invalidate: [trpc.licenses.pathKey()],
    success: "Device budget reset: no new device counts now",
  });
  const full = max !== null && used >= max;
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Device budget
        </Title>
        {canReset && (
          <ConfirmButton
            label="Reset the device budget"
            title={`Reset the device budget of ${license.licenseKey}`}
            action={reset}
            run={(close) => reset.mutate({ id: license.id }, { onSuccess: close })}
            buttonProps={{ size: "sm", disabled: used === 0 }}
          >
            {budgetResetConsequences(budget)}
          </ConfirmButton>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Field label={`New devices, last ${windowDays} days`}>
          {max === null ? used : `${used} of ${max}`}
        </Field>
        <Field label="Limit">{describeLimit(max, windowDays)}</Field>
        <Field label="Oldest counted device leaves the window">{formatDate(resetsAt)}</Field>
      </SimpleGrid>
      {max !== null && (
        <Progress
          mt="sm"
          value={Math.min(100, (used / max) * 100)}
          color={full ? "red.9" : "indigo.8"}
          aria-label={`${used} of ${max} new devices used`}
        />
      )}
      <Text size="xs" c="dimmed" mt="sm">
        {full ? "Full: a new machine is refused until a counted device leaves the window. " : ""}
        Machines new to the license count; a known machine activating again, a heal and a deactivation are
        free.
      </Text>
    </Paper>
  );
}
