import { Alert } from "@mantine/core";
import type { DesktopError } from "../shared/bridge.ts";

export function ErrorAlert({ error, onClose }: { error: DesktopError | null; onClose: () => void }) {
  if (!error) return null;
  return (
    <Alert
      color="red"
      title="That did not work"
      withCloseButton
      closeButtonLabel="Dismiss the error"
      onClose={onClose}
      role="alert"
    >
      {error.message} <code>({error.code})</code>
    </Alert>
  );
}
