import type { OperatorUserResponse } from "@licensing/contracts";
import { Select, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { useLookups } from "../licenses/lookups.ts";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";

/** What a change of operator rights refetches: the operators, and the users a promotion picks from. */
function useOperatorQueries() {
  const trpc = useTRPC();
  return [trpc.operator.users.pathKey(), trpc.users.list.pathKey()];
}

/** An invitation mail for a new operator; an email with an active account is refused at the field. */
export function InviteOperatorDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const form = useForm({ initialValues: { email: "", displayName: "" } });
  const invite = useAction(trpc.operator.users.invite.mutationOptions(), {
    invalidate: useOperatorQueries(),
    success: (u) => `Invited ${u.email} as an operator`,
    then: onClose,
  });
  const taken = errorCode(invite.error) === "user.already_exists";
  return (
    <ActionDialog
      title="Invite an operator"
      action={invite}
      error={taken ? null : invite.error}
      submitLabel="Send the invitation"
      onClose={onClose}
      onSubmit={form.onSubmit((v) =>
        invite.mutate({ email: v.email, displayName: v.displayName.trim() || undefined }),
      )}
    >
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
    </ActionDialog>
  );
}

/** Operator rights for an existing company user; they keep their company membership. */
export function PromoteDialog({ onClose }: { onClose: () => void }) {
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
  const promote = useAction(trpc.operator.users.promote.mutationOptions(), {
    invalidate: useOperatorQueries(),
    success: (u) => `${u.email} is now an operator`,
    then: onClose,
  });
  const options = (users.data ?? []).map((u) => ({
    value: u.id,
    label: `${u.email}${u.companyId ? ` (${lookups.companyName(u.companyId)}, ${u.role})` : ""}`,
  }));
  return (
    <ActionDialog
      title="Promote a user to operator"
      action={promote}
      submitLabel="Promote"
      onClose={onClose}
      onSubmit={form.onSubmit((v) => {
        if (v.userId) promote.mutate({ id: v.userId });
      })}
    >
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
    </ActionDialog>
  );
}

/** Withdraws operator rights; the server ends the user's sessions and keeps the last operator. */
export function DemoteDialog({ user, onClose }: { user: OperatorUserResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const demote = useAction(trpc.operator.users.demote.mutationOptions(), {
    invalidate: useOperatorQueries(),
    success: `${user.email} is no longer an operator`,
    then: onClose,
  });
  return (
    <ActionDialog
      title={`Demote ${user.email}?`}
      action={demote}
      submitLabel="Demote"
      color="red"
      onClose={onClose}
      onSubmit={() => demote.mutate({ id: user.id })}
    >
      <Text size="sm">
        They lose operator rights at once and are signed out everywhere. A company role they hold stays.
      </Text>
    </ActionDialog>
  );
}
