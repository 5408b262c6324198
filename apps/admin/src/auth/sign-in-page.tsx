import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { AnchorLink } from "../lib/links.tsx";
import { useState } from "react";
import { errorMessage } from "../lib/errors.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { authApi } from "./account-api.ts";

const route = getRouteApi("/sign-in");

/** Email and password, then (when the account has 2FA) a TOTP or recovery code against the ticket. */
export function SignInPage() {
  const { next } = route.useSearch();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [ticket, setTicket] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const credentials = useForm({ initialValues: { email: "", password: "" } });
  const second = useForm({ initialValues: { code: "" } });

  const done = async () => {
    await queryClient.invalidateQueries();
    await navigate({ to: next ?? "/licenses" });
  };
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (ticket) {
    return (
      <AuthLayout title="Two-factor authentication">
        <form
          onSubmit={second.onSubmit((values) =>
            run(async () => {
              await authApi.loginWithCode({ ticket, code: values.code });
              await done();
            }),
          )}
        >
          <Stack>
            <TextInput
              label="Authentication code"
              description="The six digits from your authenticator app, or a recovery code"
              autoComplete="one-time-code"
              autoFocus
              required
              {...second.getInputProps("code")}
              error={error}
            />
            <Button type="submit" loading={busy}>
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
      <form
        onSubmit={credentials.onSubmit((values) =>
          run(async () => {
            const result = await authApi.login(values);
            if (result.twoFactorRequired && result.ticket) setTicket(result.ticket);
            else await done();
          }),
        )}
      >
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
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Button type="submit" loading={busy}>
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
