import { BULK_MAX_ITEMS } from "@licensing/contracts";
import { Progress, Text } from "@mantine/core";

/** While the batch is sent: how many licenses are issued so far. */
export function SendProgress({ sent, total }: { sent: number; total: number }) {
  return (
    <div>
      <Text size="sm" id="bulk-progress-label" aria-live="polite">
        Issued {sent} of {total} (sent {BULK_MAX_ITEMS} at a time)
      </Text>
      <Progress.Root size="lg">
        <Progress.Section
          aria-labelledby="bulk-progress-label"
          value={total ? Math.floor((100 * sent) / total) : 0}
          animated
        />
      </Progress.Root>
    </div>
  );
}
