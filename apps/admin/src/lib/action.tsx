import { Alert, Button, Group, Modal, Stack, type ButtonProps, type ModalProps } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient, type QueryKey, type UseMutationOptions } from "@tanstack/react-query";
import type { FormEvent, ReactNode } from "react";
import { errorMessage } from "./errors.ts";

interface Effects<TData> {
  /**
   * Queries to refetch once it succeeded, e.g. `trpc.companies.pathKey()`; "all" after signing in, when
   * every answer cached so far was another session's (or none's).
   */
  invalidate?: QueryKey[] | "all";
  /** Said in a green notification once it succeeded. */
  success?: string | ((data: TData) => string);
  /** What follows success (after the refetch): close the dialog, go to the new page. */
  then?: (data: TData) => unknown;
  /** Errors go to a red notification: for buttons in a table row, which have no place for a message. */
  notifyError?: boolean;
}

/**
 * A write to the API and what follows it, e.g.
 * `useAction(trpc.companies.archive.mutationOptions(), { invalidate: [...], success: "Archived", then: onClose })`.
 * Every mutation of the app goes through it. Its `error` is shown next to the action (`ActionDialog`
 * does) unless `notifyError` is set; `mutateAsync` serves a caller that chains calls (bulk issue), and a
 * call that must not run twice passes `useIdempotent(client.licenses.issue.mutate)`.
 */
export function useAction<TData, TError, TVariables, TContext>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
  { invalidate = [], success, then, notifyError = false }: Effects<TData> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...options,
    onSuccess: async (data) => {
      if (invalidate === "all") await queryClient.invalidateQueries();
      else await Promise.all(invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      const message = typeof success === "function" ? success(data) : success;
      if (message) notifications.show({ color: "green", message });
      await then?.(data);
    },
    onError: notifyError
      ? (error) => notifications.show({ color: "red", message: errorMessage(error) })
      : undefined,
  });
}

/**
 * A dialog that asks for an action: its text and fields, the API's error, Cancel and the submit button
 * (Enter submits). `error` defaults to the action's; pass null when a field shows it instead.
 */
export function ActionDialog({
  title,
  action,
  submitLabel,
  onSubmit,
  onClose,
  color,
  disabled = false,
  error = action.error,
  size,
  children,
}: {
  title: string;
  action: { error: unknown; isPending: boolean };
  submitLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  color?: ButtonProps["color"];
  disabled?: boolean;
  error?: unknown;
  size?: ModalProps["size"];
  children?: ReactNode;
}) {
  return (
    <Modal opened onClose={onClose} title={title} size={size}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(event);
        }}
      >
        <Stack>
          {children}
          {error ? (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color={color} loading={action.isPending} disabled={disabled}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
