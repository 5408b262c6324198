import { Alert, Button, Loader, PasswordInput, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useAction } from "../lib/action.tsx";
import { errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";
import { AuthLayout } from "./auth-layout.tsx";

const route = getRouteApi("/accept-invite");

export function AcceptInvitePage() {
  const { token } = route.useSearch();
  const navigate = useNavigate();
  const trpc = useTRPC();
  const preview = useQuery({
    ...trpc.auth.invitation.queryOptions({ token }),
    retry: false,
    enabled: token !== "",
  });
  const form = useForm({
    initialValues: { password: "", confirm: "" },
    validate: {
      password: (v) => (v.length < 8 ? "At least 8 characters" : null),
      confirm: (v, values) => (v !== values.password ? "The passwords differ" : null),
    },
  });
  // Accepting signs in (sets the session cookie): whatever was cached belonged to no one.
  const accept = useAction(trpc.auth.acceptInvite.mutationOptions(), {
    invalidate: "all",
    then: () => navigate({ to: "/licenses" }),
  });

  if (token === "" || preview.isError) {
    return (
      <AuthLayout title="Invitation">
        <Alert color="red" role="alert">
          {token === "" ? "This link has no invitation token." : errorMessage(preview.error)}
        </Alert>
      </AuthLayout>
    );
  }
  if (!preview.data) {
    return (
      <AuthLayout title="Invitation">
        <Loader aria-label="Loading the invitation" />
      </AuthLayout>
    );
  }
  const invite = preview.data;
  return (
    <AuthLayout title="Accept the invitation">
      <Text>
        <b>{invite.email}</b> is invited as <b>{invite.role}</b>
        {invite.companyName ? ` of ${invite.companyName}` : ""}. Choose a password to finish.
      </Text>
      <form onSubmit={form.onSubmit((values) => accept.mutate({ token, password: values.password }))}>
        <Stack>
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            {...form.getInputProps("password")}
          />
          <PasswordInput
            label="Repeat the password"
            autoComplete="new-password"
            required
            {...form.getInputProps("confirm")}
          />
          {accept.error && (
            <Alert color="red" role="alert">
              {errorMessage(accept.error)}
            </Alert>
          )}
          <Button type="submit" loading={accept.isPending}>
            Accept and sign in
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
