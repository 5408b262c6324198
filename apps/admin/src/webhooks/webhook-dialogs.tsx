import type { WebhookEndpointResponse } from "@licensing/contracts";
import {
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  MultiSelect,
  Stack,
  Switch,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
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

function useInvalidateWebhooks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
}

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
  const invalidate = useInvalidateWebhooks();
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
  const done = (message: string) => async () => {
    await invalidate();
    notifications.show({ color: "green", message });
    onClose();
  };
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({ onSuccess: done("Created the webhook endpoint") }),
  );
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({ onSuccess: done("Saved the webhook endpoint") }),
  );
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
    <Modal opened onClose={onClose} title={endpoint ? "Edit the webhook endpoint" : "New webhook endpoint"}>
      <form onSubmit={submit}>
        <Stack>
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
              <Button
                size="xs"
                variant="default"
                onClick={() => form.setFieldValue("secret", generateSecret())}
              >
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
          {mutation.error && !field && (
            <Alert color="red" role="alert">
              {errorMessage(mutation.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {endpoint ? "Save" : "Create"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
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
  const invalidate = useInvalidateWebhooks();
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        onDeleted?.();
        await invalidate();
        notifications.show({ color: "green", message: "Deleted the webhook endpoint" });
        onClose();
      },
    }),
  );
  return (
    <Modal opened onClose={onClose} title="Delete this webhook endpoint?">
      <Stack>
        <Text size="sm" style={{ overflowWrap: "anywhere" }}>
          No more events are sent to {endpoint.url}, and its delivery history is deleted with it. This cannot
          be undone.
        </Text>
        {remove.error && (
          <Alert color="red" role="alert">
            {errorMessage(remove.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: endpoint.id })}>
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
