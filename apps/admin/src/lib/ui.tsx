import { Alert, Center, Group, Loader, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { errorMessage } from "./errors.ts";

/** What a query says of itself, as `useQuery` returns it. */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
}

/**
 * What is shown while a query loads or when it failed, each said in words; and, given `empty`, what is
 * said in place of an empty list (`isEmpty` for data that is not an array).
 */
export function QueryState<T>({
  query,
  empty,
  isEmpty,
  label,
  children,
}: {
  query: QueryLike<T>;
  label: string;
  empty?: ReactNode;
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
  if (empty !== undefined && none) return <EmptyState>{empty}</EmptyState>;
  return <>{children(data)}</>;
}

/** Said in place of a list that has nothing in it. */
export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" p="md" ta="center">
      {children}
    </Text>
  );
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

/** A labelled value on a detail page: "Company", then the company. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div">{children}</Text>
    </div>
  );
}

export const formatDate = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "—";
