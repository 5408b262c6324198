import { Alert, Button, PasswordInput, Stack, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { getRouteApi } from "@tanstack/react-router";
import { useAction } from "../lib/action.tsx";
import { errorMessage } from "../lib/errors.ts";
import { AnchorLink } from "../lib/links.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { AuthLayout } from "./auth-layout.tsx";

const signInLink = (
  <AnchorLink to="/sign-in" search={{ next: undefined }} size="sm">
    Back to sign-in
  </AnchorLink>
);

export function ForgotPasswordPage() {
  const form = useForm({ initialValues: { email: "" } });
  const send = useAction(useTRPC().auth.forgotPassword.mutationOptions());
  return (
    <AuthLayout title="Forgot password">
      {send.isSuccess ? (
        <Text role="status">
          If an account has this address, a reset link is on its way. It works for one hour.
        </Text>
      ) : (
        <form onSubmit={form.onSubmit((values) => send.mutate(values))}>
          <Stack>
            <TextInput
              label="Email"
              type="email"
              required
              {...form.getInputProps("email")}
              error={send.error ? errorMessage(send.error) : null}
            />
            <Button type="submit" loading={send.isPending}>
              Send the reset link
            </Button>
          </Stack>
        </form>
      )}
      {signInLink}
    </AuthLayout>
  );
}

const resetRoute = getRouteApi("/reset-password");

export function ResetPasswordPage() {
  const { token } = resetRoute.useSearch();
  const form = useForm({
    initialValues: { newPassword: "" },
    validate: { newPassword: (v) => (v.length < 8 ? "At least 8 characters" : null) },
  });
  const reset = useAction(useTRPC().auth.resetPassword.mutationOptions());
  return (
    <AuthLayout title="Choose a new password">
      {reset.isSuccess ? (
        <Text role="status">
          Your password is changed and your other sessions are closed. Sign in with it.
        </Text>
      ) : (
        <form onSubmit={form.onSubmit((values) => reset.mutate({ token, newPassword: values.newPassword }))}>
          <Stack>
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              {...form.getInputProps("newPassword")}
            />
            {reset.error && (
              <Alert color="red" role="alert">
                {errorMessage(reset.error)}
              </Alert>
            )}
            <Button type="submit" loading={reset.isPending}>
              Set the password
            </Button>
          </Stack>
        </form>
      )}
      {signInLink}
    </AuthLayout>
  );
}
