import { Alert, Center, Group, Loader, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { errorMessage } from "./errors.ts";

/** A list's three other states: loading, failed, and empty, each said in words. */
export function QueryState<T>({
  query,
  empty,
  isEmpty,
  label,
  children,
}: {
  query: { data: T | undefined; error: unknown; isPending: boolean };
  label: string;
  empty: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.error) return <ErrorAlert error={query.error} />;
  if (query.isPending || query.data === undefined)
    return (
      <Center p="lg">
        <Loader aria-label={`Loading ${label}`} />
      </Center>
    );
  const data = query.data;
  const none = isEmpty ? isEmpty(data) : Array.isArray(data) && data.length === 0;
  if (none)
    return (
      <Text c="dimmed" p="md" ta="center">
        {empty}
      </Text>
    );
  return <>{children(data)}</>;
}

export function ErrorAlert({ error }: { error: unknown }) {
  return (
    <Alert color="red" role="alert">
      {errorMessage(error)}
    </Alert>
  );
}

export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <Group justify="space-between" mb="md" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}

export const formatDate = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "—";
