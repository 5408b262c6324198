import type { OperatorUserResponse } from "@licensing/contracts";
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useLookups } from "../licenses/lookups.ts";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";

// The theme names the notifications' close button, not the modals'.

interface DialogProps {
  onClose: () => void;
  onDone: () => Promise<unknown>;
}

/** An invitation mail for a new operator; an email with an active account is refused at the field. */
export function InviteOperatorDialog({ onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const form = useForm({ initialValues: { email: "", displayName: "" } });
  const invite = useMutation(
    trpc.operator.users.invite.mutationOptions({
      onSuccess: async (u) => {
        await onDone();
        notifications.show({ color: "green", message: `Invited ${u.email} as an operator` });
        onClose();
      },
    }),
  );
  const taken = errorCode(invite.error) === "user.already_exists";
  return (
    <Modal
      opened
      onClose={onClose}

      title="Invite an operator"
    >
      <form
        onSubmit={form.onSubmit((v) =>
          invite.mutate({ email: v.email, displayName: v.displayName.trim() || undefined }),
        )}
      >
        <Stack>
          <TextInput
            label="Email"
            type="email"
            required
            data-autofocus
            {...form.getInputProps("email")}
            error={taken ? errorMessage(invite.error) : undefined}
          />
          <TextInput label="Display name" {...form.getInputProps("displayName")} />
          <Text size="sm">
            An operator sees and manages every tenant. The invitation mail is valid for 7 days.
          </Text>
          {invite.error && !taken && (
            <Alert color="red" role="alert">
              {errorMessage(invite.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send the invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Operator rights for an existing company user; they keep their company membership. */
export function PromoteDialog({ onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const lookups = useLookups();
  const users = useQuery({
    ...trpc.users.list.queryOptions({}),
    select: (list) => list.filter((u) => !u.isOperator && u.status !== "revoked"),
  });
  const form = useForm<{ userId: string | null }>({
    initialValues: { userId: null },
    validate: { userId: (v) => (v ? null : "Choose a user") },
  });
  const promote = useMutation(
    trpc.operator.users.promote.mutationOptions({
      onSuccess: async (u) => {
        await onDone();
        notifications.show({ color: "green", message: `${u.email} is now an operator` });
        onClose();
      },
    }),
  );
  const options = (users.data ?? []).map((u) => ({
    value: u.id,
    label: `${u.email}${u.companyId ? ` (${lookups.companyName(u.companyId)}, ${u.role})` : ""}`,
  }));
  return (
    <Modal opened onClose={onClose} title="Promote a user to operator">
      <form
        onSubmit={form.onSubmit((v) => {
          if (v.userId) promote.mutate({ id: v.userId });
        })}
      >
        <Stack>
          <Select
            label="User"
            placeholder={users.isPending ? "Loading the users…" : "Email or company"}
            searchable
            data={options}
            nothingFoundMessage="No user who is not an operator yet"
            error={users.error ? errorMessage(users.error) : undefined}
            {...form.getInputProps("userId")}
          />
          <Text size="sm">Operator rights reach every tenant, beyond the user&apos;s own company.</Text>
          {promote.error && (
            <Alert color="red" role="alert">
              {errorMessage(promote.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={promote.isPending}>
              Promote
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Withdraws operator rights; the server ends the user's sessions and keeps the last operator. */
export function DemoteDialog({ user, onClose, onDone }: DialogProps & { user: OperatorUserResponse }) {
  const trpc = useTRPC();
  const demote = useMutation(
    trpc.operator.users.demote.mutationOptions({
      onSuccess: async () => {
        await onDone();
        notifications.show({ color: "green", message: `${user.email} is no longer an operator` });
        onClose();
      },
    }),
  );
  return (
    <Modal opened onClose={onClose} title={`Demote ${user.email}?`}>
      <Stack>
        <Text size="sm">
          They lose operator rights at once and are signed out everywhere. A company role they hold stays.
        </Text>
        {demote.error && (
          <Alert color="red" role="alert">
            {errorMessage(demote.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={demote.isPending} onClick={() => demote.mutate({ id: user.id })}>
            Demote
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
