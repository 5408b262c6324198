import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { useAction } from "../lib/action.tsx";
import { errorMessage } from "../lib/errors.ts";
import { AnchorLink } from "../lib/links.tsx";
import { useTRPC } from "../lib/trpc.ts";
import { AuthLayout } from "./auth-layout.tsx";

const route = getRouteApi("/sign-in");

/** Email and password, then (when the account has 2FA) a TOTP or recovery code against the ticket. */
export function SignInPage() {
  const { next } = route.useSearch();
  const navigate = useNavigate();
  const trpc = useTRPC();
  const [ticket, setTicket] = useState<string | null>(null);
  const credentials = useForm({ initialValues: { email: "", password: "" } });
  const second = useForm({ initialValues: { code: "" } });

  const enter = () => navigate({ to: next ?? "/licenses" });
  // Each step may set the session cookie: whatever was cached belonged to no one.
  const login = useAction(trpc.auth.login.mutationOptions(), {
    invalidate: "all",
    // With 2FA on, the password earns a ticket for the code.
    then: (result) => (result.twoFactorRequired && result.ticket ? setTicket(result.ticket) : enter()),
  });
  const verify = useAction(trpc.auth.loginTwoFactor.mutationOptions(), { invalidate: "all", then: enter });

  if (ticket) {
    return (
      <AuthLayout title="Two-factor authentication">
        <form onSubmit={second.onSubmit((values) => verify.mutate({ ticket, code: values.code }))}>
          <Stack>
            <TextInput
              label="Authentication code"
              description="The six digits from your authenticator app, or a recovery code"
              autoComplete="one-time-code"
              autoFocus
              required
              {...second.getInputProps("code")}
              error={verify.error ? errorMessage(verify.error) : null}
            />
            <Button type="submit" loading={verify.isPending}>
              Verify
            </Button>
            <Anchor component="button" type="button" onClick={() => setTicket(null)}>
              Start again
            </Anchor>
          </Stack>
        </form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Sign in">
      <form onSubmit={credentials.onSubmit((values) => login.mutate(values))}>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            {...credentials.getInputProps("email")}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...credentials.getInputProps("password")}
          />
          {login.error && (
            <Alert color="red" role="alert">
              {errorMessage(login.error)}
            </Alert>
          )}
          <Button type="submit" loading={login.isPending}>
            Sign in
          </Button>
          <AnchorLink to="/forgot-password" size="sm">
            Forgot your password?
          </AnchorLink>
        </Stack>
      </form>
    </AuthLayout>
  );
}
