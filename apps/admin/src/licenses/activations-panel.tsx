import type { ActivationHeal, LicenseResponse } from "@licensing/contracts";
import { Badge, Button, Group, List, Paper, Text, Title } from "@mantine/core";
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
        aria-label="Activations"
        empty="No machine has activated this license yet."
        minWidth={960}
        columns={[
          {
            header: "Machine",
            cell: (a) => (
              <>
                {a.machineName ?? "—"}
                {a.newDevice && (
                  <div>
                    <Badge variant="outline" size="sm" title="It counts against the device budget">
                      new device
                    </Badge>
                  </div>
                )}
              </>
            ),
          },
          { header: "Fingerprint", cell: (a) => a.hwFingerprint ?? "—", td: { maw: 200, style: WRAP } },
          {
            header: "Components",
            cell: (a) => <ComponentKinds kinds={a.componentKinds} />,
            td: { miw: 240, maw: 320 },
          },
          { header: "Status", cell: (a) => <StatusBadge of="activation" status={a.status} />, td: NOWRAP },
          { header: "Activated", cell: (a) => formatDate(a.activatedAt), td: NOWRAP },
          { header: "Last heartbeat", cell: (a) => formatDate(a.lastHeartbeatAt), td: NOWRAP },
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
        detail={(a) =>
          a.heals.length > 0
            ? {
                id: `heals-${a.id}`,
                content: <HealHistory machine={a.machineName} heals={a.heals} />,
              }
            : null
        }
      />
    </Paper>
  );
}

const WRAP = { overflowWrap: "anywhere" } as const;
const NOWRAP = { style: { whiteSpace: "nowrap" } } as const;

/** The kinds of a machine's fingerprint components (the server never shows their hashes). */
function ComponentKinds({ kinds }: { kinds: string[] }) {
  if (kinds.length === 0) return "—";
  return (
    <Group gap={4} role="group" aria-label="Components">
      {kinds.map((kind) => (
        <Badge key={kind} variant="default" size="sm" tt="none" fw={500}>
          {kind}
        </Badge>
      ))}
    </Group>
  );
}

/** Each time the machine's fingerprint changed and its components recognised it, oldest first. */
function HealHistory({ machine, heals }: { machine: string | null; heals: ActivationHeal[] }) {
  return (
    <div aria-label={`Heals of ${machine ?? "this machine"}`} role="group">
      <Text size="sm" fw={600}>
        Healed {heals.length === 1 ? "once" : `${heals.length} times`}: its fingerprint changed and its
        components recognised it
      </Text>
      <List size="sm" mt={4}>
        {heals.map((h) => (
          <List.Item key={h.healedAt}>
            {formatDate(h.healedAt)}: {Math.round(h.score * 100)}% of its components matched; changed:{" "}
            {h.changedKinds.join(", ") || "none"}
          </List.Item>
        ))}
      </List>
    </div>
  );
}
