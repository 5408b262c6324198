import type { LicenseTemplateResponse } from "@licensing/contracts";
import { Button, Code, Group, Paper, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useAction } from "../lib/action.tsx";
import { ConfirmButton } from "../lib/confirm-button.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";

export function SigningKeysPanel({ template }: { template: LicenseTemplateResponse }) {
  const trpc = useTRPC();
  const can = usePermissions();
  const keys = useQuery(trpc.templates.signingKeys.list.queryOptions({ id: template.id }));
  const invalidate = [trpc.templates.signingKeys.pathKey()];
  const rotate = useAction(trpc.templates.signingKeys.rotate.mutationOptions(), {
    invalidate,
    notifyError: true,
    success: "New signing key: it signs new licenses from now on",
  });
  const retire = useAction(trpc.templates.signingKeys.retire.mutationOptions(), {
    invalidate,
    success: "Signing key retired",
  });
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Text size="sm" maw={560}>
          The active key signs new licenses. Rotating makes a new active key; the old one still verifies the
          licenses it signed until it is retired.
        </Text>
        {can.manageTemplates && template.status === "Active" && (
          <Button loading={rotate.isPending} onClick={() => rotate.mutate({ id: template.id })}>
            Rotate the key
          </Button>
        )}
      </Group>
      <DataTable
        query={keys}
        label="signing keys"
        empty="No signing key."
        minWidth={560}
        columns={[
          { header: "Public key", cell: (k) => <Code>{k.publicKeyHex.slice(0, 16)}…</Code> },
          { header: "Status", cell: (k) => <StatusBadge of="signingKey" status={k.status} /> },
          { header: "Created", cell: (k) => formatDate(k.createdAt) },
          can.manageTemplates && {
            header: "Actions",
            cell: (k) =>
              k.status === "Inactive" && (
                <ConfirmButton
                  label="Retire"
                  title="Retire this signing key?"
                  action={retire}
                  run={(close) => retire.mutate({ id: template.id, keyId: k.id }, { onSuccess: close })}
                >
                  This records that the key is out of use for good: it can never sign again. Licenses it
                  signed are not re-signed by this; a transfer or rebind signs one with the active key.
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Paper>
  );
}
