import type { LicenseResponse } from "@licensing/contracts";
import { Button, Paper, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useAction } from "../lib/action.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";

export function ActivationsPanel({ license, canWrite }: { license: LicenseResponse; canWrite: boolean }) {
  const trpc = useTRPC();
  const activations = useQuery(trpc.activations.list.queryOptions({ id: license.id }));
  const reset = useAction(trpc.activations.reset.mutationOptions(), {
    invalidate: [trpc.activations.pathKey()],
    success: "Activation reset: its seat is free",
    notifyError: true,
  });
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Activations
      </Title>
      <DataTable
        query={activations}
        label="activations"
        empty="No machine has activated this license yet."
        minWidth={600}
        columns={[
          { header: "Machine", cell: (a) => a.machineName ?? "—" },
          { header: "Fingerprint", cell: (a) => a.hwFingerprint ?? "—" },
          { header: "Status", cell: (a) => <StatusBadge of="activation" status={a.status} /> },
          { header: "Activated", cell: (a) => formatDate(a.activatedAt) },
          { header: "Last heartbeat", cell: (a) => formatDate(a.lastHeartbeatAt) },
          canWrite && {
            header: "Actions",
            cell: (a) =>
              a.status === "active" && (
                <Button
                  size="xs"
                  variant="default"
                  loading={reset.isPending}
                  onClick={() => reset.mutate({ id: license.id, activationId: a.id })}
                >
                  Reset
                </Button>
              ),
          },
        ]}
      />
    </Paper>
  );
}
