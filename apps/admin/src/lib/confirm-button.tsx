import { Button, Text, type ButtonProps } from "@mantine/core";
import { useState, type ReactNode } from "react";
import { ActionDialog } from "./action.tsx";

/**
 * A row's button for an action that cannot be undone: it opens a dialog that says what will happen, and
 * only "confirm" sends it (`run(close)` calls the action's `mutate` with `{ onSuccess: close }`).
 */
export function ConfirmButton({
  label,
  title,
  children,
  action,
  run,
  color = "red",
  buttonProps,
}: {
  label: string;
  title: string;
  children: ReactNode;
  action: { error: unknown; isPending: boolean; reset: () => void };
  run: (close: () => void) => void;
  color?: ButtonProps["color"];
  buttonProps?: ButtonProps;
}) {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <Button
        size="xs"
        variant="default"
        {...buttonProps}
        onClick={() => {
          action.reset(); // the action is shared by every row: no other row's error in this dialog
          setOpen(true);
        }}
      >
        {label}
      </Button>
      {open && (
        <ActionDialog
          title={title}
          action={action}
          submitLabel={label}
          color={color}
          onSubmit={() => run(close)}
          onClose={close}
        >
          <Text size="sm">{children}</Text>
        </ActionDialog>
      )}
    </>
  );
}
