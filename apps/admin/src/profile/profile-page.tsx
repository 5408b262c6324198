import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Image,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQueryClient } from "@tanstack/react-query";
import QRCode from "qrcode";
import { useState } from "react";
import { useAction } from "../lib/action.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { useMe } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { PageHeader } from "../lib/ui.tsx";

export function ProfilePage() {
  const me = useMe();
  return (
    <>
      <PageHeader title="Profile" />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <ChangePassword />
        <Paper withBorder p="md">
          <Title order={2} size="h4" mb="sm">
            Two-factor authentication
          </Title>
          {me.totpEnabled ? <DisableTwoFactor /> : <EnrolTwoFactor />}
        </Paper>
      </SimpleGrid>
    </>
  );
}

function ChangePassword() {
  const form = useForm({
    initialValues: { currentPassword: "", newPassword: "" },
    validate: { newPassword: (v) => (v.length < 8 ? "At least 8 characters" : null) },
  });
  const change = useAction(useTRPC().auth.changePassword.mutationOptions(), {
    success: "Password changed; your other sessions are closed",
    then: () => form.reset(),
  });
  return (
    <Paper withBorder p="md">
      <Title order={2} size="h4" mb="sm">
        Change the password
      </Title>
      <form onSubmit={form.onSubmit((v) => change.mutate(v))}>
        <Stack>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            required
            {...form.getInputProps("currentPassword")}
          />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            required
            {...form.getInputProps("newPassword")}
          />
          {change.error && (
            <Alert color="red" role="alert">
              {errorMessage(change.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              Change the password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function useRefreshMe() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
}

/** Errors about the confirming password, shown at its field rather than at the action or the code. */
const PASSWORD_ERRORS = new Set(["auth.reauthentication_required", "auth.invalid_password"]);
const isPasswordError = (error: unknown) => PASSWORD_ERRORS.has(errorCode(error) ?? "");

function EnrolTwoFactor() {
  const trpc = useTRPC();
  const refreshMe = useRefreshMe();
  const [enrolment, setEnrolment] = useState<{ secret: string; qr: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  // A session signed in more than 10 minutes ago must confirm the password to turn 2FA on: the field
  // appears when the server asks for it, and its value then goes with enrolment and enabling.
  const [password, setPassword] = useState<string | null>(null);
  const confirming = password === null ? {} : { password };
  const askingForPassword = {
    onError: (error: unknown) => {
      if (errorCode(error) === "auth.reauthentication_required") setPassword((p) => p ?? "");
    },
  };
  const enroll = useAction(trpc.auth.twoFactor.enroll.mutationOptions(), {
    then: async (r) =>
      setEnrolment({ secret: r.secret, qr: await QRCode.toDataURL(r.otpauthUri, { margin: 1 }) }),
  });
  const enable = useAction(trpc.auth.twoFactor.enable.mutationOptions(), {
    then: (r) => setCodes(r.recoveryCodes),
  });
  const passwordField = (error: unknown) =>
    password !== null && (
      <PasswordInput
        label="Password"
        description="You signed in more than 10 minutes ago: confirm it is you."
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={errorCode(error) === "auth.invalid_password" ? errorMessage(error) : null}
      />
    );

  if (codes) {
    const text = codes.join("\n");
    const download = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
    return (
      <Stack>
        <Alert color="indigo" title="Two-factor authentication is on" role="status">
          Keep these recovery codes somewhere safe: each signs you in once if you lose your authenticator.
          They are shown only now.
        </Alert>
        <Code block>{text}</Code>
        <Group>
          <CopyButton value={text}>
            {({ copied, copy }) => <Button onClick={copy}>{copied ? "Copied" : "Copy the codes"}</Button>}
          </CopyButton>
          <Button component="a" href={download} download="recovery-codes.txt" variant="default">
            Download the codes
          </Button>
          <Button variant="subtle" onClick={() => void refreshMe()}>
            Done
          </Button>
        </Group>
      </Stack>
    );
  }
  if (!enrolment) {
    return (
      <form
        onSubmit={(e) => {
          e.preventDefault();
          enroll.mutate(confirming, askingForPassword);
        }}
      >
        <Stack>
          <Text>Sign-in will ask for a code from an authenticator app as well as the password.</Text>
          {passwordField(enroll.error)}
          {enroll.error && !isPasswordError(enroll.error) && (
            <Alert color="red" role="alert">
              {errorMessage(enroll.error)}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={enroll.isPending}>
              Set up two-factor authentication
            </Button>
          </Group>
        </Stack>
      </form>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        enable.mutate({ code, ...confirming }, askingForPassword);
      }}
    >
      <Stack>
        <Text size="sm">
          Scan this code with your authenticator app, or type the key, then enter the code it shows.
        </Text>
        <Image src={enrolment.qr} alt="QR code of the authenticator key" w={180} h={180} />
        <Text size="sm">
          Key: <Code>{enrolment.secret}</Code>
        </Text>
        <TextInput
          label="Code from the app"
          autoComplete="one-time-code"
          required
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          error={enable.error && !isPasswordError(enable.error) ? errorMessage(enable.error) : null}
        />
        {passwordField(enable.error)}
        <Group>
          <Button type="submit" loading={enable.isPending}>
            Turn on
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DisableTwoFactor() {
  const trpc = useTRPC();
  const form = useForm({ initialValues: { password: "", code: "" } });
  const disable = useAction(trpc.auth.twoFactor.disable.mutationOptions(), {
    invalidate: [trpc.auth.me.queryKey()],
  });
  return (
    <form onSubmit={form.onSubmit((v) => disable.mutate(v))}>
      <Stack>
        <Text>Two-factor authentication is on. To turn it off, confirm with your password and a code.</Text>
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          {...form.getInputProps("password")}
        />
        <TextInput label="Code" autoComplete="one-time-code" required {...form.getInputProps("code")} />
        {disable.error && (
          <Alert color="red" role="alert">
            {errorMessage(disable.error)}
          </Alert>
        )}
        <Group>
          <Button color="red.9" type="submit" loading={disable.isPending}>
            Turn off
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
