import type { LicenseResponse } from "@licensing/contracts";
import { Group, Paper, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useAction } from "../lib/action.tsx";
import { ConfirmButton } from "../lib/confirm-button.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { formatDate } from "../lib/ui.tsx";
import { configLimit, forceReleaseConsequences, formatDuration } from "./seat-terms.ts";

const NOWRAP = { style: { whiteSpace: "nowrap" } } as const;

/**
 * A floating license's seats (decision 0048): the leases live now, n of `limits.maxSeats`, with their
 * holders, and a force release for those who may manage the license.
 */
export function SeatsPanel({ license, canWrite }: { license: LicenseResponse; canWrite: boolean }) {
  const trpc = useTRPC();
  const leases = useQuery(trpc.leases.list.queryOptions({ id: license.id }));
  const release = useAction(trpc.leases.forceRelease.mutationOptions(), {
    invalidate: [trpc.leases.pathKey()],
    success: "Lease released: the seat is free",
    notifyError: true,
  });
  const maxSeats = configLimit(license.config, "maxSeats");
  const maxMachines = configLimit(license.config, "maxMachines");
  const inUse = leases.data?.length;
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm" align="baseline">
        <Title order={2} size="h4">
          Seats
        </Title>
        <Text aria-label="Seats in use" fw={600}>
          {inUse === undefined ? "…" : inUse} of {maxSeats ?? "unlimited"} in use
        </Text>
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        Floating: a machine leases a seat while the program runs and renews it; a lease not renewed ends after{" "}
        {formatDuration(license.leaseSeconds)}.{" "}
        {license.maxBorrowDays > 0
          ? `A lease may be borrowed for offline work for up to ${license.maxBorrowDays} days.`
          : "Borrowing is not allowed."}{" "}
        {maxMachines
          ? `At most ${maxMachines} machines may be activated.`
          : "Any number of machines may be activated."}
      </Text>
      <DataTable
        query={leases}
        label="seats"
        aria-label="Seat holders"
        empty="No machine holds a seat now."
        minWidth={760}
        rowKey={(l) => l.leaseId}
        columns={[
          { header: "Machine", cell: (l) => l.machineName ?? "—" },
          {
            header: "Activation",
            cell: (l) => (
              <Text size="xs" ff="monospace">
                {l.activationId}
              </Text>
            ),
          },
          { header: "Acquired", cell: (l) => formatDate(l.acquiredAt), td: NOWRAP },
          { header: "Expires", cell: (l) => formatDate(l.expiresAt), td: NOWRAP },
          {
            header: "Borrowed until",
            cell: (l) => (l.borrowedUntil ? formatDate(l.borrowedUntil) : "—"),
            td: NOWRAP,
          },
          canWrite && {
            header: "Actions",
            cell: (l) => (
              <ConfirmButton
                label="Force release"
                title={`Force release the seat of ${l.machineName ?? "this machine"}`}
                action={release}
                run={(close) => release.mutate({ leaseId: l.leaseId }, { onSuccess: close })}
              >
                {forceReleaseConsequences(l.machineName)}
                {l.borrowedUntil &&
                  ` It is borrowed until ${formatDate(l.borrowedUntil)}: a program working offline learns of it only when it next reaches the server.`}
              </ConfirmButton>
            ),
          },
        ]}
      />
    </Paper>
  );
}
