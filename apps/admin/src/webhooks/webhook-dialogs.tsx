import type { WebhookEndpointResponse } from "@licensing/contracts";
import { Button, CopyButton, Group, MultiSelect, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useQuery } from "@tanstack/react-query";
import { ActionDialog, useAction } from "../lib/action.tsx";
import { errorCode, errorMessage } from "../lib/errors.ts";
import { useTRPC } from "../lib/trpc.ts";
import { generateSecret } from "./secret.ts";

type Field = "url" | "secret" | "events";

/** The field each of core's webhook validation codes is about; any other error shows beside the buttons. */
const fieldOf: Record<string, Field> = {
  "webhook.invalid_url": "url",
  "webhook.url_not_allowed": "url",
  "webhook.secret_too_short": "secret",
  "webhook.invalid_events": "events",
};

/**
 * Creates an endpoint, or edits one (`endpoint` given). The secret is write-only: on edit the field is
 * empty and only a value typed or generated there replaces it.
 */
export function WebhookFormDialog({
  endpoint,
  onClose,
}: {
  endpoint?: WebhookEndpointResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const eventTypes = useQuery(trpc.webhooks.eventTypes.queryOptions());
  const form = useForm({
    initialValues: {
      url: endpoint?.url ?? "",
      description: endpoint?.description ?? "",
      secret: "",
      events: endpoint?.events ?? ([] as string[]),
      isActive: endpoint?.isActive ?? true,
    },
  });
  const effects = { invalidate: [trpc.webhooks.pathKey()], then: onClose };
  const create = useAction(trpc.webhooks.create.mutationOptions(), {
    ...effects,
    success: "Created the webhook endpoint",
  });
  const update = useAction(trpc.webhooks.update.mutationOptions(), {
    ...effects,
    success: "Saved the webhook endpoint",
  });
  const mutation = endpoint ? update : create;
  const field = fieldOf[errorCode(mutation.error) ?? ""];
  const errorAt = (name: Field) => (field === name ? errorMessage(mutation.error) : undefined);

  const submit = form.onSubmit((v) => {
    const description = v.description.trim() || null;
    if (!endpoint) return create.mutate({ url: v.url, secret: v.secret, description, events: v.events });
    update.mutate({
      id: endpoint.id,
      url: v.url,
      description,
      events: v.events,
      isActive: v.isActive,
      ...(v.secret ? { secret: v.secret } : {}),
    });
  });

  return (
    <ActionDialog
      title={endpoint ? "Edit the webhook endpoint" : "New webhook endpoint"}
      action={mutation}
      error={field ? null : mutation.error}
      submitLabel={endpoint ? "Save" : "Create"}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextInput
        label="URL"
        description="Where the events are POSTed: an absolute http or https address"
        placeholder="https://example.com/hooks"
        required
        data-autofocus
        {...form.getInputProps("url")}
        error={errorAt("url")}
      />
      <TextInput label="Description" {...form.getInputProps("description")} />
      <MultiSelect
        label="Events"
        description="The event types sent to this endpoint"
        required
        searchable
        data={eventTypes.data ?? []}
        {...form.getInputProps("events")}
        error={errorAt("events") ?? (eventTypes.error ? errorMessage(eventTypes.error) : undefined)}
      />
      <Stack gap={4}>
        <TextInput
          label={endpoint ? "New secret" : "Secret"}
          description={
            endpoint
              ? "Left empty, the current secret is kept; it is never shown again"
              : "At least 16 characters; it signs every delivery and is never shown again"
          }
          required={!endpoint}
          autoComplete="off"
          spellCheck={false}
          ff="monospace"
          {...form.getInputProps("secret")}
          error={errorAt("secret")}
        />
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => form.setFieldValue("secret", generateSecret())}>
            Generate a secret
          </Button>
          <CopyButton value={form.values.secret}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy} disabled={!form.values.secret}>
                {copied ? "Copied" : "Copy the secret"}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
      {endpoint && (
        <Switch
          label="Active"
          description="An inactive endpoint gets no new delivery and its pending ones wait"
          {...form.getInputProps("isActive", { type: "checkbox" })}
        />
      )}
    </ActionDialog>
  );
}

export function DeleteWebhookDialog({
  endpoint,
  onClose,
  onDeleted,
}: {
  endpoint: WebhookEndpointResponse;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const trpc = useTRPC();
  // Only the list: the deleted endpoint's own queries would refetch into a 404 on the page being left.
  const remove = useAction(trpc.webhooks.delete.mutationOptions(), {
    invalidate: [trpc.webhooks.list.pathKey()],
    success: "Deleted the webhook endpoint",
    then: () => {
      onDeleted?.();
      onClose();
    },
  });
  return (
    <ActionDialog
      title="Delete this webhook endpoint?"
      action={remove}
      submitLabel="Delete"
      color="red"
      onClose={onClose}
      onSubmit={() => remove.mutate({ id: endpoint.id })}
    >
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        No more events are sent to {endpoint.url}, and its delivery history is deleted with it. This cannot be
        undone.
      </Text>
    </ActionDialog>
  );
}
