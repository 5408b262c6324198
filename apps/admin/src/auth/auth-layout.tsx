import { Center, Paper, Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** The centred card of the pages shown before sign-in. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
