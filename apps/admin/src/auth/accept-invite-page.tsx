import { Alert, Button, Loader, PasswordInput, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { errorMessage } from "../lib/errors.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { authApi } from "./account-api.ts";

const route = getRouteApi("/accept-invite");

export function AcceptInvitePage() {
  const { token } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const preview = useQuery({
    queryKey: ["invite", token],
    queryFn: () => authApi.previewInvite(token),
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
  const accept = useMutation({
    mutationFn: (password: string) => authApi.acceptInvite({ token, password }),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      await navigate({ to: "/licenses" });
    },
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
      <form onSubmit={form.onSubmit((values) => accept.mutate(values.password))}>
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
