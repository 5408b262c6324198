import type { LicenseTemplateResponse } from "@licensing/contracts";
import { Badge, Code, Group, Paper, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useAction } from "../lib/action.tsx";
import { ConfirmButton } from "../lib/confirm-button.tsx";
import { DataTable } from "../lib/data-table.tsx";
import { usePermissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { formatDate } from "../lib/ui.tsx";

/** Said in the retire dialog and in the docs, word for word (issue 24). */
export const RETIRE_CONSEQUENCE =
  "Retiring a key ends its certificate: tokens and markers it signed after retirement are refused; what it signed before stays valid until their own expiry.";

export function SigningKeysPanel({ template }: { template: LicenseTemplateResponse }) {
  const trpc = useTRPC();
  const can = usePermissions();
  const keys = useQuery(trpc.templates.signingKeys.list.queryOptions({ id: template.id }));
  const root = keys.data?.find((k) => k.isRoot)?.id;
  const invalidate = [trpc.templates.signingKeys.pathKey()];
  const rotate = useAction(trpc.templates.signingKeys.rotate.mutationOptions(), {
    invalidate,
    success: "New signing key: it signs new licenses from now on",
  });
  const retire = useAction(trpc.templates.signingKeys.retire.mutationOptions(), {
    invalidate,
    success: "Signing key retired",
  });
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" align="flex-start" mb="sm">
        <Stack gap={4} maw={640}>
          <Text size="sm">
            The active key signs new licenses and their markers. The root key, the template&apos;s first, is
            built into your programs: it only certifies the keys that come after it, so a program built with
            it trusts every later key of the template.
          </Text>
          <Text size="sm">
            Rotating makes a new active key; the old one still signs the markers of the licenses it signed
            until it is retired.
          </Text>
        </Stack>
        {can.manageTemplates && template.status === "Active" && (
          <ConfirmButton
            label="Rotate the key"
            title="Rotate the signing key?"
            color="blue"
            buttonProps={{ size: "sm", variant: "filled" }}
            action={rotate}
            run={(close) => rotate.mutate({ id: template.id }, { onSuccess: close })}
          >
            A new key signs the licenses issued from now on. Programs already shipped keep working: the new
            key is certified by the root key built into them, and the license files and heartbeat answers
            carry its certificate. The current key stays valid for what it signed.
          </ConfirmButton>
        )}
      </Group>
      <DataTable
        query={keys}
        label="signing keys"
        empty="No signing key."
        minWidth={640}
        columns={[
          {
            header: "Public key",
            cell: (k) => (
              <Group gap="xs" wrap="nowrap">
                <Code>{k.publicKeyHex.slice(0, 16)}…</Code>
                {k.id === root && (
                  <Badge
                    variant="light"
                    color="grape"
                    title="The root key certifies the template's other keys"
                  >
                    Root: built into your programs
                  </Badge>
                )}
              </Group>
            ),
          },
          { header: "Status", cell: (k) => <StatusBadge of="signingKey" status={k.status} /> },
          { header: "Created", cell: (k) => formatDate(k.createdAt) },
          {
            header: "Rotated out",
            cell: (k) => (k.notAfter ? formatDate(k.notAfter) : "—"),
          },
          can.manageTemplates && {
            header: "Actions",
            cell: (k) =>
              k.status === "Inactive" && (
                <ConfirmButton
                  label="Retire"
                  title={k.id === root ? "Retire the root key?" : "Retire this signing key?"}
                  action={retire}
                  run={(close) => retire.mutate({ id: template.id, keyId: k.id }, { onSuccess: close })}
                >
                  {RETIRE_CONSEQUENCE} From now on it signs nothing: the active key signs the markers of its
                  licenses. This cannot be undone.
                  {k.id === root &&
                    " This is the root key: it keeps certifying the other keys, so the programs built with it keep trusting them."}
                </ConfirmButton>
              ),
          },
        ]}
      />
    </Paper>
  );
}
